"""Loads ExecuTorch's own Python pass files, unmodified, from the trees a user
gives: an ExecuTorch source tree (SLICEFUZZ_EXECUTORCH_SRC) and an optional
overlay of files newer than it (here ../shared/native-delegate), the overlay
first. `executorch.<a>.<b>` resolves to `<tree>/a/b.py` or the package
`<tree>/a/b/`; the modules in et_torch113_shims.shim_modules() answer the imports
that neither tree nor torch 1.13 can. Every upstream file executed is recorded
(path and SHA-256 of the bytes executed), so a test can check that the code run
is the tree's, byte for byte.
"""
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys

import et_torch113_shims

LOADED = []  # (module name, path, sha256) of every upstream file executed


class _TreeLoader(importlib.machinery.SourceFileLoader):
    def get_data(self, path):
        data = super().get_data(path)
        if path.endswith(".py"):
            LOADED.append((self.name, path, hashlib.sha256(data).hexdigest()))
        return data


class _Namespace(importlib.abc.Loader):
    """A package directory without __init__.py, or a parent of a shim."""

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        pass


class _Shim(importlib.abc.Loader):
    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        pass


class UpstreamFinder(importlib.abc.MetaPathFinder):
    def __init__(self, roots, shims):
        self.roots = [r for r in roots if r]
        self.shims = shims

    def find_spec(self, name, path=None, target=None):
        if name in self.shims:
            return importlib.util.spec_from_loader(name, _Shim(self.shims[name]))
        if name != "executorch" and not name.startswith("executorch."):
            return None
        parts = name.split(".")[1:]
        dirs = [os.path.join(r, *parts) for r in self.roots if os.path.isdir(os.path.join(r, *parts))]
        for r in self.roots:
            init = os.path.join(r, *parts, "__init__.py")
            if parts and os.path.isfile(init):
                spec = importlib.util.spec_from_file_location(
                    name, init, loader=_TreeLoader(name, init), submodule_search_locations=dirs)
                return spec
        if dirs or any(s.startswith(name + ".") for s in self.shims):
            spec = importlib.machinery.ModuleSpec(name, _Namespace(), is_package=True)
            spec.submodule_search_locations = dirs
            return spec
        for r in self.roots:
            f = os.path.join(r, *parts) + ".py"
            if parts and os.path.isfile(f):
                return importlib.util.spec_from_file_location(name, f, loader=_TreeLoader(name, f))
        return None


def install(src, overlay=None):
    """Makes `import executorch...` load from overlay, then src; returns the finder."""
    et_torch113_shims.install_op_overload_is_view()
    shims = et_torch113_shims.shim_modules()
    for name in [n for n in shims if not n.startswith("executorch")]:
        sys.modules[name] = shims[name]
    finder = UpstreamFinder([overlay, src], shims)
    sys.meta_path.insert(0, finder)
    return finder


def upstream_path(rel, src, overlay=None):
    """The file `rel` (e.g. exir/passes/reinplace.py) as the trees resolve it, or None."""
    for root in (overlay, src):
        if root and os.path.isfile(os.path.join(root, rel)):
            return os.path.join(root, rel)
    return None
