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


# pulpcore's upload task validates an uploaded content unit in the worker (`deferred_validate`,
# run where there is no request); a serializer of another base, or another method, is no hook.
from pulpcore.plugin.serializers import SingleArtifactContentUploadSerializer
from pulpcore.plugin.serializers.content import UploadSerializerFieldsMixin
from rest_framework import serializers


class PackageUploadSerializer(SingleArtifactContentUploadSerializer):
    def deferred_validate(self, data):  # expect: JC501
        data["metadata"] = requests.get("https://index.example/metadata").json()
        return data

    def validate_name(self, value):
        return value


class GemUploadSerializer(serializers.Serializer, UploadSerializerFieldsMixin):
    def deferred_validate(self, data):  # expect: JC501
        return data


class PlainSerializer(serializers.Serializer):
    def deferred_validate(self, data):
        return data
