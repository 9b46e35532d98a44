collect_ignore_glob = ["*.py"]
