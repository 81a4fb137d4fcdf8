#!/bin/bash
# Run by hand on a demo host: no schedule runs this script.
cd /srv/app
python manage.py load_fixtures
