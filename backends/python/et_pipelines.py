"""The et-* pipelines: ExecuTorch's upstream passes in upstream's order, as a list
of stages (each a function ep -> ep), imported from the trees that
et_upstream_loader.install() put on the import path. Shared by the worker
(et_pass_worker.py) and the scripts `slicefuzz export --python` writes for an
et-* backend, which embed this file.

  edge-control     no pass
  native-delegate  backends/native/passes get_default_passes() on the program,
                   then ReplaceCopyWithAliasPass on its graph (NativeBackend.preprocess)
  aoti-view        backends/aoti/passes ReplaceViewCopyWithViewPass
  exir-reinplace   exir/passes/reinplace.py reinplace_pass, default op set
  exir-reinplace-index-copy   the same with index_copy added (its docstring's example)
  view-copy-to-view  exir/passes/replace_view_copy_with_view_pass.py
  to-executorch    reinplace_pass then ReplaceViewCopyWithViewPass, as
                   exir/program/_program.py runs them with run_reinplace_pass=True
"""


def load_pipeline(name):
    """The pipeline's stages in upstream's order (the diagnosis blames the first
    stage that makes a result wrong). Raises whatever the upstream imports raise."""
    if name == "edge-control":
        return []
    if name == "native-delegate":
        from executorch.backends.native.passes import get_default_passes, ReplaceCopyWithAliasPass
        from executorch.exir.pass_base import ExportedProgramPassBase

        def default_passes(ep):  # to_edge_transform_and_lower's transform_passes
            for p in get_default_passes():
                if isinstance(p, ExportedProgramPassBase):
                    ep = p(ep).exported_program
                else:
                    ep.graph_module = p(ep.graph_module).graph_module
            return ep

        def alias_pass(ep):  # NativeBackend.preprocess
            ReplaceCopyWithAliasPass()(ep.graph_module)
            return ep
        return [default_passes, alias_pass]
    if name == "aoti-view":
        from executorch.backends.aoti.passes.replace_view_copy_with_view import ReplaceViewCopyWithViewPass

        def aoti(ep):
            ep.graph_module = ReplaceViewCopyWithViewPass()(ep.graph_module).graph_module
            return ep
        return [aoti]
    if name in ("exir-reinplace", "exir-reinplace-index-copy"):
        from executorch.exir.dialects._ops import ops
        from executorch.exir.passes.reinplace import DEFAULT_INPLACEABLE_OPS, reinplace_pass
        extra = {ops.edge.aten.index_copy.default} if name.endswith("index-copy") else set()
        return [lambda ep: reinplace_pass(ep, ops_to_inplace=set(DEFAULT_INPLACEABLE_OPS) | extra)]
    if name in ("view-copy-to-view", "to-executorch"):
        from executorch.exir.passes.replace_view_copy_with_view_pass import ReplaceViewCopyWithViewPass
        from executorch.exir.passes.reinplace import reinplace_pass

        def exir_views(ep):
            ep.graph_module = ReplaceViewCopyWithViewPass()(ep.graph_module).graph_module
            return ep
        return ([reinplace_pass] if name == "to-executorch" else []) + [exir_views]
    raise ValueError("unknown pipeline %s" % name)


def run_stages(ep, stages):
    for stage in stages:
        ep = stage(ep)
    return ep
