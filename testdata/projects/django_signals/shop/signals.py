import django.dispatch

order_paid = django.dispatch.Signal()
order_viewed = django.dispatch.Signal()
order_refunded = django.dispatch.Signal()
