"""Structured starting seatings: codes over a finite field when the table count is a prime power.

With q tables, every player is a word of length R (his table each round). Two players meet as
often as their words agree. The codewords of a maximum-distance-separable code of dimension k
over GF(q) agree in at most k − 1 places, and any two coordinates of the code hold every pair of
symbols equally often: the evaluations of the polynomials of degree < k at the field's points
and at infinity (length q + 1), plus, for even q and k = 3, the hyperoval's nucleus (length
q + 2: the hexacode for q = 4). The players take n codewords chosen so that every table of
every round gets exactly n/q of them and the round pairs' (table, table) cells are as even as
possible, which is what S2 counts.
"""

from __future__ import annotations

import random
from itertools import combinations, product
from math import comb

# Codes with many more words than players take long to thin out evenly; the search then starts
# from random tables instead.
_MOST_WORDS_PER_PLAYER = 4


def code_tables(player_count: int, tables: int, rounds: int, rng: random.Random) -> list[list[int]]:
    """Table of every player in every round from a code over GF(tables), or [] if none fits.

    Needs `tables` a prime power, every player playing every round (player_count = 10·tables)
    and a code long enough for the rounds.
    """
    field = _field(tables)
    if field is None or player_count != 10 * tables:
        return []
    add, multiply = field
    dimension = 2
    while tables**dimension < player_count:
        dimension += 1
    if tables**dimension > _MOST_WORDS_PER_PLAYER * player_count:
        return []
    columns = [[_power(multiply, t, e) for e in range(dimension)] for t in range(tables)]
    columns.append([0] * (dimension - 1) + [1])
    if tables % 2 == 0 and dimension == 3:
        columns.append([0, 1, 0])
    if rounds > len(columns):
        return []
    columns = columns[:rounds]
    words = []
    for message in product(range(tables), repeat=dimension):
        word = []
        for column in columns:
            value = 0
            for coefficient, entry in zip(message, column, strict=True):
                value = add[value][multiply[coefficient][entry]]
            word.append(value)
        words.append(word)
    chosen = _balanced_subset(words, player_count, tables, rng)
    if chosen is None:
        return []
    rng.shuffle(chosen)
    return [[words[w][r] for w in chosen] for r in range(rounds)]


def _balanced_subset(
    words: list[list[int]], size: int, symbols: int, rng: random.Random
) -> list[int] | None:
    """`size` of the words, every symbol equally often per coordinate, pair cells even.

    Hill climbing on swaps of a chosen and an unchosen word; the cost is the squared imbalance
    of the coordinates (weighed heavily: it decides whether tables hold 10) plus S2.
    """
    length = len(words[0])
    pairs = list(combinations(range(length), 2))
    share = size // symbols
    chosen = rng.sample(range(len(words)), size)
    unchosen = [w for w in range(len(words)) if w not in set(chosen)]
    single = [[0] * symbols for _ in range(length)]
    double = [[0] * (symbols * symbols) for _ in pairs]

    def account(word: int, sign: int) -> None:
        letters = words[word]
        for c, letter in enumerate(letters):
            single[c][letter] += sign
        for k, (a, b) in enumerate(pairs):
            double[k][letters[a] * symbols + letters[b]] += sign

    def cost() -> int:
        spread = sum((count - share) ** 2 for row in single for count in row)
        return 1000 * spread + sum(comb(count, 2) for row in double for count in row)

    for word in chosen:
        account(word, 1)
    current = cost()
    for _ in range(400 * size):
        if current == 0:
            break
        x = rng.randrange(size)
        y = rng.randrange(len(unchosen))
        account(chosen[x], -1)
        account(unchosen[y], 1)
        candidate = cost()
        if candidate <= current:
            chosen[x], unchosen[y] = unchosen[y], chosen[x]
            current = candidate
        else:
            account(unchosen[y], -1)
            account(chosen[x], 1)
    if any(count != share for row in single for count in row):
        return None
    return chosen


def _field(order: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """Addition and multiplication tables of GF(order), elements as base-p digit vectors."""
    prime = next((p for p in range(2, order + 1) if order % p == 0), None)
    if prime is None:
        return None
    degree = 0
    rest = order
    while rest % prime == 0:
        rest //= prime
        degree += 1
    if rest != 1:
        return None
    modulus = _irreducible(prime, degree)

    def digits(x: int) -> list[int]:
        return [(x // prime**e) % prime for e in range(degree)]

    def number(coefficients: list[int]) -> int:
        return sum(c * prime**e for e, c in enumerate(coefficients))

    def times(x: int, y: int) -> int:
        product_ = [0] * (2 * degree)
        for i, a in enumerate(digits(x)):
            for j, b in enumerate(digits(y)):
                product_[i + j] = (product_[i + j] + a * b) % prime
        for top in range(2 * degree - 1, degree - 1, -1):
            lead = product_[top]
            if lead:
                for e, c in enumerate(modulus):
                    product_[top - degree + e] = (product_[top - degree + e] - lead * c) % prime
        return number(product_[:degree])

    def plus(x: int, y: int) -> int:
        return number([(a + b) % prime for a, b in zip(digits(x), digits(y), strict=True)])

    elements = range(order)
    add = [[plus(x, y) for y in elements] for x in elements]
    multiply = [[times(x, y) for y in elements] for x in elements]
    return add, multiply


def _irreducible(prime: int, degree: int) -> list[int]:
    """Coefficients c_0..c_degree (monic) of an irreducible polynomial over GF(prime)."""
    if degree == 1:
        return [0, 1]
    for low in product(range(prime), repeat=degree):
        coefficients = [*low, 1]
        if not any(_has_factor(coefficients, prime, d) for d in range(1, degree // 2 + 1)):
            return coefficients
    raise ValueError(f"no irreducible polynomial of degree {degree} over GF({prime})")


def _has_factor(coefficients: list[int], prime: int, degree: int) -> bool:
    """Whether a monic polynomial of the given degree divides the polynomial."""
    for low in product(range(prime), repeat=degree):
        divisor = [*low, 1]
        remainder = list(coefficients)
        for top in range(len(remainder) - 1, degree - 1, -1):
            lead = remainder[top]
            if lead:
                for e, c in enumerate(divisor):
                    remainder[top - degree + e] = (remainder[top - degree + e] - lead * c) % prime
        if not any(remainder[:degree]):
            return True
    return False


def _power(multiply: list[list[int]], x: int, exponent: int) -> int:
    result = 1
    for _ in range(exponent):
        result = multiply[result][x]
    return result
