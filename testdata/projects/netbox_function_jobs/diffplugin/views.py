from core.models import Job

from diffplugin.jobs import prune_results


def schedule(request, view):
    obj = view.get_object()  # a ConfigurationRequest, though nothing here says so
    obj.enqueue_job(request, "push_configs", schedule_at=request.POST.get("at"))


def collect(request, view):
    view.get_object().enqueue_job(request, "collect_diffs")


def start_pruning(user):
    Job.enqueue(prune_results, user=user, interval=60)
