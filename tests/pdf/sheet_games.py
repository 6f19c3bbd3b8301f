"""Game logs for the sheet tests: GAME-FORMAT JSON dicts, valid under the classic preset."""

NAMES = ["Аня", "Борис", "Вика"]


def long_log(deals: int = 120, names=None, every_redeal: int = 10) -> dict:
    """A valid 3-player game of mostly play deals in which nobody gets near the barrel.

    The declarer rotates; he makes a 100 and then fails a 120 on his next turn, so each
    seat gains about 20 points per six deals. Every tenth record is a redeal and a
    defender now and then takes no trick (a bolt), so the marks show up too.
    """
    players = list(names or NAMES)
    records = []
    for i in range(deals):
        if every_redeal and i % every_redeal == every_redeal - 1:
            records.append({"type": "redeal", "reason": "four_nines"})
            continue
        declarer = i % 3
        made = (i // 3) % 2 == 0
        points = [10, 10, 10]
        points[declarer] = 100
        no_tricks = []
        if i % 7 == 0:
            # One defender takes nothing: a bolt; the other keeps his 10.
            quiet = (declarer + 1) % 3
            points[quiet] = 0
            points[declarer] = 110
            no_tricks = [quiet]
        # From deal 150 on a failed contract is 160, so the leaders drift down instead of
        # up and a log of any length (tried up to 2000) stays below the target.
        failed = 120 if i < 150 else 160
        records.append({"type": "play", "declarer": declarer,
                        "contract": 100 if made else failed, "points": points,
                        "marriages": {}, "no_tricks": no_tricks})
    return {"format": "thousand-game/1", "title": "Пятница у Бориса", "date": "2026-12-04",
            "place": "дача", "players": players,
            "agreements": {"preset": "classic", "overrides": {"dark": True,
                                                               "barrel_threshold": 900}},
            "first_dealer": 0, "deals": records}


def won_log(names=None) -> dict:
    """A short game without the barrel that seat 0 wins on the fourth deal."""
    deal = {"type": "play", "declarer": 0, "contract": 280, "points": [100, 10, 10],
            "marriages": {"0": ["hearts", "diamonds"]}, "no_tricks": []}
    return {"format": "thousand-game/1", "players": list(names or NAMES),
            "agreements": {"preset": "classic", "overrides": {"barrel": False}},
            "first_dealer": 0, "deals": [dict(deal) for _ in range(4)]}


FOUR = ["Александра", "Константин", "Валентина", "Владислава"]


def four_log() -> dict:
    """Four long names, a bolt each deal, then every total pushed below −1000 and failed
    200s with bolts on top: cells like «— ! −1120» and deltas like −1840."""
    deals = []
    for i in range(30):
        dealer = i % 4
        active = [s for s in range(4) if s != dealer]
        declarer = active[0] if i >= 24 else active[i % 3]
        others = [s for s in active if s != declarer]
        points = [None] * 4
        points[declarer], points[others[0]], points[others[1]] = 100, 20, 0
        deals.append({"type": "play", "declarer": declarer,
                      "contract": 200 if i >= 24 else 100, "points": points,
                      "no_tricks": [others[1]], "prikup": {"points": 0, "marriage": None}})
    deals[24:24] = [{"type": "adjustment", "player": s, "amount": a, "reason": "other"}
                    for s, a in enumerate((-1840, -1640, -1440, -1120))]
    return {"format": "thousand-game/1", "players": list(FOUR), "deals": deals}
