# Django settings: django-q2 with the ORM broker, whose failed tasks are presented again.
Q_CLUSTER = {"name": "shop", "orm": "default", "retry": 300, "timeout": 240, "max_attempts": 4}
