from gigs.cli import main

main()
