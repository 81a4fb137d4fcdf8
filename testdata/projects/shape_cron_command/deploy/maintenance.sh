#!/bin/bash
# Run weekly by the crontab beside the code. Only the last command is one it runs.
cat > /tmp/notes.txt <<NOTE
To reload the demo data: python manage.py load_fixtures
NOTE
reset_by_hand() {
    python manage.py load_fixtures
}
if [ -x ./deploy/reset_demo.sh ]; then
    echo "a reset script is present"
fi
python manage.py \
    backfill_totals --all
