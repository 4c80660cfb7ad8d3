#!/usr/bin/env python3
"""An independent implementation of the dl256 generator (docs/generator.md),
from the text alone: Python's hashlib for BLAKE2b and the ChaCha20 block
function written out from RFC 8439.  It made t/data/dl256-0-0-2000:

    share/dev/dl256_ref.py KEYHEX EVENT SESSION FIRST LAST

prints "board deal-number" for boards FIRST..LAST, as dl-stream does.
"""
import hashlib
import struct
import sys

D = 53644737765488792839237440000
LABEL = b"dl/dl256/1"


def rotl32(v, c):
    return ((v << c) & 0xFFFFFFFF) | (v >> (32 - c))


def quarter_round(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl32(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl32(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & 0xFFFFFFFF; s[d] = rotl32(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & 0xFFFFFFFF; s[b] = rotl32(s[b] ^ s[c], 7)


def chacha20_block(key, counter, nonce):
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key)) + [counter]
    state += list(struct.unpack("<3I", nonce))
    w = state[:]
    for _ in range(10):
        quarter_round(w, 0, 4, 8, 12); quarter_round(w, 1, 5, 9, 13)
        quarter_round(w, 2, 6, 10, 14); quarter_round(w, 3, 7, 11, 15)
        quarter_round(w, 0, 5, 10, 15); quarter_round(w, 1, 6, 11, 12)
        quarter_round(w, 2, 7, 8, 13); quarter_round(w, 3, 4, 9, 14)
    return struct.pack("<16I", *[(x + y) & 0xFFFFFFFF for x, y in zip(w, state)])


def session_key(key, event, session):
    return hashlib.blake2b(LABEL + struct.pack(">QI", event, session),
                           digest_size=32, key=key).digest()


def blocks(skey, board):
    yield chacha20_block(skey, board, bytes(12))
    counter = 0
    while True:
        yield chacha20_block(skey, counter, struct.pack(">II", 1, board) + bytes(4))
        counter += 1


def deal_number(skey, board):
    for block in blocks(skey, board):
        for i in range(5):
            candidate = int.from_bytes(block[12 * i:12 * i + 12], "big")
            if candidate < D:
                return candidate


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    key = bytes.fromhex(sys.argv[1])
    event, session, first, last = map(int, sys.argv[2:])
    skey = session_key(key, event, session)
    for board in range(first, last + 1):
        print("%d %024x" % (board, deal_number(skey, board)))


if __name__ == "__main__":
    # RFC 8439, 2.3.2: the block function's own test vector
    assert chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000"))[:4].hex() == "10f1e7e4"
    main()
