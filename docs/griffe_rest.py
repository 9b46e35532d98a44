"""A Griffe extension for the API pages: bgcore's reST-flavoured docstrings as Markdown.

bgcore's docstrings are written for ``help()`` and doctest, in a little reST:
``double backticks``, Sphinx roles (``:class:`Position```), ``::`` literal
blocks, underlined section titles and ``>>>`` examples.  Markdown would read
the examples as nested block quotes (and ``[...][:3]`` as a link), so before
mkdocstrings renders a docstring this extension

- fences every doctest block (```` ```pycon ````) and every ``::`` literal block;
- turns each role into an optional cross-reference, resolved to the object's
  canonical path where Griffe knows it (a link when that object has an API page,
  plain code otherwise: an unknown name never fails a strict build);
- turns an underlined title into a bold line (the page's table of contents
  stays the API's), and escapes ``**`` outside code (``2**64``, ``xoshiro256**``);
- marks every underscored member private, dunders included, for ``filters: public``.

mkdocs.yml loads it by path (the handler's ``extensions`` option); it is not part
of the package, and mkdocs does not copy it into the site (``exclude_docs``).  It
imports Griffe only when Griffe asks for ``RestDocstrings``: pytest's
``--doctest-modules`` imports every ``.py`` file under docs/, without the docs extra.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import griffe

# :class:`~bgcore.Game`, :func:`play`, :meth:`Position.play`, ... (Sphinx's Python roles)
_ROLE = r":(?:py:)?(?P<role>class|func|meth|attr|data|const|mod|exc|obj):`(?P<tilde>~?)(?P<target>[^`]+)`"
# Inline code, left as it is (it may span lines).
_CODE = r"(?P<code>``.+?``|`[^`\n]+`)"
# reST's **strong** is Markdown's too; any other ``**`` (``2**64``) is escaped.
_STRONG = r"(?P<strong>(?<![\w*])\*\*[^\s*][^*]*?\*\*)"
_PROSE = re.compile(f"{_ROLE}|{_CODE}|{_STRONG}|(?P<stars>\\*\\*)", re.DOTALL)
_TITLE = "\x00title\x00"
_UNDERLINE = re.compile(r"^\s*([-=~^])\1{2,}\s*$")


def _canonical(package: griffe.Module, path: str) -> str:
    """``path`` (``bgcore.Position.play``) as the path its object is documented under."""
    import griffe

    parts = path.split(".")
    if parts[0] != package.name:
        return path
    obj: Any = package
    try:
        for part in parts[1:]:
            obj = obj.members[part]
            if obj.is_alias:
                obj = obj.final_target
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return path
    return str(obj.path)


def _resolve(package: griffe.Module, scope: griffe.Object, target: str) -> str:
    """The full path of a role's ``target`` as written in ``scope``'s docstring."""
    import griffe

    head, _, rest = target.partition(".")
    try:
        path = scope.resolve(head)
    except (griffe.NameResolutionError, AttributeError):
        path = head
    return _canonical(package, f"{path}.{rest}" if rest else path)


def _prose(text: str, package: griffe.Module, scope: griffe.Object) -> str:
    def replace(match: re.Match[str]) -> str:
        if match["code"] is not None or match["strong"] is not None:
            return match[0]
        if match["stars"] is not None:
            return r"\*\*"
        target = match["target"].strip()
        shown = target.rsplit(".", 1)[-1] if match["tilde"] else target
        if match["role"] in ("func", "meth"):
            shown += "()"
        identifier = _resolve(package, scope, target)
        return f'<autoref identifier="{identifier}" optional><code>{shown}</code></autoref>'

    # A reST section title (one line, underlined) becomes a bold line.
    lines: list[str] = []
    for line in text.split("\n"):
        title = lines[-1].strip() if lines else ""
        alone = len(lines) < 2 or not lines[-2].strip()
        if title and alone and _UNDERLINE.match(line):
            lines[-1] = f"{lines[-1][: _indent(lines[-1])]}{_TITLE}{title}"
            lines.append("")
        else:
            lines.append(line)
    out = _PROSE.sub(replace, "\n".join(lines)).split("\n")
    return "\n".join(line.replace(_TITLE, "**") + "**" if _TITLE in line else line for line in out)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def to_markdown(docstring: str, package: griffe.Module, scope: griffe.Object) -> str:
    """The Markdown for mkdocstrings of one cleaned (dedented) docstring."""
    lines = docstring.split("\n")
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.append(_prose("\n".join(prose), package, scope))
            prose.clear()

    def fence(block: list[str], language: str, indent: str) -> None:
        flush()
        if out and out[-1].strip():
            out.append("")
        out.append(f"{indent}```{language}")
        out.extend(block)
        out.append(f"{indent}```")

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith(">>>"):
            # A doctest block runs to the next blank line.
            start = i
            while i < len(lines) and lines[i].strip():
                i += 1
            fence(lines[start:i], "pycon", line[: _indent(line)])
            continue
        if stripped.endswith("::") and not stripped.startswith(".."):
            # A literal block: the more indented lines after the blank line that follows.
            base = _indent(line)
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            k = j
            while k < len(lines) and (not lines[k].strip() or _indent(lines[k]) > base):
                k += 1
            while k > j and not lines[k - 1].strip():
                k -= 1
            if k > j:
                head = line.rstrip()[:-2].rstrip()
                if head.strip():
                    prose.append(head + ":")
                depth = min(_indent(b) for b in lines[j:k] if b.strip())
                fence([b[depth:] for b in lines[j:k]], "text", line[:base])
                i = k
                continue
        prose.append(line)
        i += 1
    flush()
    return "\n".join(out)


def _objects(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


# The docstring of a Cython class's __init__ slot wrapper: it says nothing.
_SLOT_INIT = "Initialize self.  See help(type(self)) for accurate signature."


def _stub_signatures(module: griffe.Module) -> None:
    """Give a compiled module's ``(*args, **kwargs)`` functions their stub's parameters.

    Griffe inspects an extension module and merges its ``.pyi`` into it, taking the
    stub's annotations but keeping the runtime's parameters: a Cython class's
    ``__init__`` would show as ``Dice(*args, **kwargs)``.
    """
    import griffe

    stub_path = Path(str(module.filepath)).with_name(f"{module.name}.pyi")
    if not stub_path.is_file():
        return
    stub = griffe.visit(module.name, stub_path, stub_path.read_text(encoding="utf-8"), parent=module.parent)
    for stub_obj in _objects(stub):
        if not stub_obj.is_function:
            continue
        try:
            runtime = module.get_member(stub_obj.path.split(".", 2)[-1])
        except (KeyError, ValueError):
            continue
        kinds = {p.kind for p in runtime.parameters}
        if griffe.ParameterKind.var_positional in kinds and griffe.ParameterKind.var_keyword in kinds:
            runtime.parameters = stub_obj.parameters
            runtime.returns = stub_obj.returns
        if runtime.docstring is not None and runtime.docstring.value.strip() == _SLOT_INIT:
            runtime.docstring = None


def _on_package(self: object, *, pkg: griffe.Module, **kwargs: Any) -> None:
    """Rewrite the docstrings of the loaded package (see the module docstring)."""
    for module in pkg.modules.values():
        if module.filepath is not None and Path(str(module.filepath)).suffix not in (".py", ".pyi"):
            _stub_signatures(module)
    for obj in _objects(pkg):
        # mkdocs.yml's `filters: public` honours the modules' __all__; Griffe holds
        # dunders (__slots__, __eq__, ...) public too, which the pages leave out.
        if obj.name.startswith("_") and not obj.is_module:
            obj.public = False
        if obj.docstring is not None:
            scope = obj if obj.is_module or obj.is_class else (obj.parent or obj)
            obj.docstring.value = to_markdown(obj.docstring.value, pkg, scope)


def __getattr__(name: str) -> Any:
    """``RestDocstrings``, the Griffe extension, made when Griffe loads it (PEP 562)."""
    if name != "RestDocstrings":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import griffe

    return type(name, (griffe.Extension,), {"on_package": _on_package, "__doc__": _on_package.__doc__})
