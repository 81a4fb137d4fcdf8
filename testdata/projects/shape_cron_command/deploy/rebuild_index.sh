#!/bin/bash
# Run nightly from the system crontab (/etc/crontab has a user field):
#
#   0 2 * * * deploy /srv/app/deploy/rebuild_index.sh >> /var/log/rebuild.log 2>&1

cd /srv/app
python manage.py rebuild_index --all
