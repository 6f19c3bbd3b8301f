"""The club on the web: the host's roster, seats and seasons, the club's pages and
papers, and the club at a game's start (chips, «Ещё партию с теми же»)."""
