# jobcheck-test: select=JC501
from app import tasking
from app.tasks import cleanup


def delete(request, version_id):
    tasking.dispatch(cleanup.delete_version, args=(version_id,))


def export(request, repo_id):
    tasking.dispatch_direct(cleanup.export_repository, repo_id)


def stats(request):
    return tasking.timed(cleanup.measure)


def login(request):
    tasking.audit("login")
    tasking.audit(cleanup.login_event())


def install():
    tasking.schedule("versions", "app.tasks.cleanup.prune_versions", 3600)
    tasking.schedule("logs", "app.tasks.cleanup:rotate_logs", 3600)  # `module:function` names it too
    tasking.remember("home", cleanup.Home().path)
    tasking.remember("measure", cleanup.measure)
