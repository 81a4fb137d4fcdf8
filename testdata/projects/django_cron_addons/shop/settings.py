CRON_CLASSES = ["shop.cron.SendReminders", "shop.cron.RefreshCache"]

CRONJOBS = [
    ("*/30 * * * *", "shop.cron.purge_carts"),
    ("0 3 * * *", "django.core.management.call_command", ["export_orders"], {}, ">> /var/log/export.log"),
    ("0 4 * * *", "shop.cron.no_such_function"),
    ("0 5 * * *", "django.core.management.call_command", 5),
]
