IMPORTED_OPTIONS = {"max_retries": 3}
