"""A quick path through the app: new game, a deal, totals."""


def test_new_game_and_first_deal(table):
    """A new game and its first deal, end to end through the forms."""
    game = table.new_game()
    assert game.startswith("/g/")
    table.deal(game, declarer="1", contract="120", points_0="20", points_2="20",
               mar_1=["hearts"], nt_0="1", nt_1="1", nt_2="1")
    assert table.totals(game) == [20, 120, 20]
