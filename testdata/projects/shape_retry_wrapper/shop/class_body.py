# jobcheck-test: select=JC201,JC202,JC203,JC501
"""A retry decorator written in the class body for that class's methods: its first parameter
is the exception to retry on, not `self`, and the methods under it are retried."""
import functools
import time

import requests


class ChecksumError(Exception):
    pass


class StorageClient:
    def _retry_on_error(error_cls, max_retries, backoff=2):
        def decorator(func):
            @functools.wraps(func)
            def wrapper(__self, *args, **kwargs):
                tries = 0
                while True:
                    try:
                        return func(__self, *args, **kwargs)
                    except error_cls:
                        if tries >= max_retries:
                            raise
                        tries += 1
                        time.sleep(backoff)

            return wrapper

        return decorator

    @_retry_on_error(requests.ConnectionError, 5)
    def upload(self, path, data):
        requests.post("https://files.example/upload", params={"path": path}, data=data)  # expect: JC201

    @_retry_on_error(ChecksumError, 5)
    def commit(self, path):
        """Retried only on a checksum error, which the POST never raises: the retry cannot repeat it."""
        requests.post("https://files.example/commit", params={"path": path})

    @_retry_on_error(requests.Timeout, 3)
    def list_folder(self, path):
        """A read retried: repeating it changes nothing."""
        return requests.get("https://files.example/list", params={"path": path}).json()

    def describe(self):
        """A method whose first parameter is `self`: not retried, and not a decorator."""
        return requests.get("https://files.example/about").json()
