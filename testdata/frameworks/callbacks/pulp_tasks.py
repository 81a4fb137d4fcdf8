# jobcheck-test: select=JC501,JC201
# Pulp plugins hand their task functions to pulpcore's `dispatch`: each runs once in a worker,
# and a task that fails is not run again (no retry, so no JC201 on its HTTP write).
import requests
from pulpcore.plugin.tasking import dispatch


def synchronize(remote_pk, repository_pk, mirror=False):  # expect: JC501
    requests.post("https://mirror.example/notify", json={"repository": repository_pk})


def publish(repository_version_pk):  # expect: JC501
    return repository_version_pk


def describe(remote_pk):
    return remote_pk


class RepositoryViewSet:
    def sync(self, request, pk):
        return dispatch(synchronize, exclusive_resources=[pk], kwargs={"remote_pk": request.remote, "repository_pk": pk})

    def publish(self, request, pk):
        return dispatch(func=publish, shared_resources=[pk], args=(pk,))

    def show(self, request, pk):
        return describe(pk)
