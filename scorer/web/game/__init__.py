"""The game: its page under both links, the deal forms, the rules sheet, «А если бы…»,
the downloads and the board, with what they share (the version cache, the page model)."""
