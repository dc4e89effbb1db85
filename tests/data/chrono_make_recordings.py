"""Regenerate the recorded chrono streams ``tests/data/chrono_*.jsonl``.

    python tests/data/chrono_make_recordings.py

Each stream is ``(time of the frame's CR, frame bytes, split)`` events turned into
``{"delay_s", "hex"}`` chunks: ``split`` cuts the frame at that byte so its halves arrive
in separate reads (mid-frame splits); frames sharing a time are glued into one chunk.
The shot gaps 94, 95, 96 ms (20.02) sit between the CR-carrying chunks.
The expected readings are in ``EXPECTED`` (also used by the tests).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fieldjudge.devices.simulator import Chunk, encode_be  # noqa: E402

HERE = Path(__file__).parent


def save_recording(path: Path, chunks: Iterable[Chunk]) -> None:
    lines = [json.dumps({"delay_s": round(d, 4), "hex": b.hex()}) for d, b in chunks]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


SPLIT_LEAD_S = 0.004  # the first half of a split frame arrives this long before the rest

# The real JUGS/Stalker examples (58.6, 58.9: a baseball in mph) fall outside the default
# window of 100-500 fps, so they are errors ("implausible speed"), never readings.
EXPECTED: dict[str, list[float]] = {
    "plain": [280.1, 285.2, 290.3, 295.4, 300.0, 301.5, 287.0],
    "stalker_a": [287.0, 288.5, 289.0, 291.2, 299.9],
    "stalker_be": [285.3, 284.1, 288.8],
    "decatur": [287.4, 286.0, 288.8, 289.1, 290.5],
}
EXPECTED_GARBLED: dict[str, list[str]] = {
    "plain": ["bad frame"],  # "#$%garbage" (the reason names the format)
    "stalker_a": ["implausible speed 58.6 fps"],
    "stalker_be": ["implausible speed 58.9 fps"],
    "decatur": [],
}
# Gaps in ms between consecutive readings of each stream (host time of the CR chunks).
EXPECTED_GAPS_MS: dict[str, list[float]] = {
    "plain": [94, 95, 96, 150, 120, 200],
    "stalker_a": [94, 95, 96, 350],
    "decatur": [94, 95, 96, 101],
}


def to_chunks(events: list[tuple[float, bytes, int | None]]) -> list[tuple[float, bytes]]:
    chunks: list[tuple[float, bytes]] = []
    now = 0.0
    pending: list[tuple[float, bytes]] = []
    for t, frame, split in events:
        if split:
            pending.append((t - SPLIT_LEAD_S, frame[:split]))
            pending.append((t, frame[split:]))
        else:
            pending.append((t, frame))
    pending.sort(key=lambda x: x[0])
    for t, data in pending:
        if chunks and abs(t - now) < 1e-9:
            chunks[-1] = (chunks[-1][0], chunks[-1][1] + data)  # glued: same read
            continue
        chunks.append((round(t - now, 4), data))
        now = t
    return chunks


def plain() -> list[tuple[float, bytes, int | None]]:
    return [
        (0.050, b"000\r\n", None),
        (0.100, b"280.1\r\n", None),
        (0.194, b"285.2\r\n", 2),  # +94 ms, split "28" | "5.2\r\n"
        (0.289, b"290.3\r\n", 5),  # +95 ms, split before CR
        (0.385, b"+295.4\r\n", 6),  # +96 ms, split between CR and LF
        (0.450, b"000\r\n", None),
        (0.535, b"300.0\r\n", None),
        (0.600, b"#$%garbage\r\n", None),  # counted, never a reading
        (0.655, b"301.5\r\n", None),
        (0.855, b"287\r\n", None),
        (0.855, b"000\r\n", None),  # glued to the previous frame
    ]


def stalker_a() -> list[tuple[float, bytes, int | None]]:
    idle = b"   . \r"
    ev: list[tuple[float, bytes, int | None]] = [(0.030, idle, None)]
    ev += [
        (0.100, b"287\r", None),  # no tenths
        (0.194, b"288.5\r", 3),  # +94 ms
        (0.289, b"289\r", 1),  # +95 ms
        (0.385, b"291.2\r", 4),  # +96 ms
        (0.440, idle, 2),
        (0.440, b"    \r", None),  # blank idle, glued
        (0.535, b" 58.6\r", None),  # leading space (JUGS example)
        (0.600, idle, None),
        (0.735, b"299.9\r", None),
        (0.800, idle, None),
    ]
    return ev


def stalker_be() -> list[tuple[float, bytes, int | None]]:
    real = b"\x88RD   34A 586         5A 589         6A             \r"
    frames: list[tuple[bytes, int | None]] = [
        (encode_be(None, None), None),
        (real, 20),  # live 58.6, peak 58.9 → 58.9
        (encode_be(None, 58.9), None),
        (encode_be(None, 58.9), 7),
        (encode_be(285.3, 285.3), 30),  # one-frame burst
        (encode_be(None, 285.3), None),
        (encode_be(280.0, 285.3), None),  # two-frame burst, peak still the old one at first
        (encode_be(284.1, 284.1), 52),  # split just before CR
        (encode_be(None, 284.1), None),
        (encode_be(None, 284.1, 290.0), None),  # a hit block alone is not a shot
        (encode_be(288.8, 288.8, 290.0), None),  # hit latched before the burst → ignored
        (encode_be(None, 288.8), None),
        (encode_be(None, 288.8), None),
    ]
    # 20 Hz: one frame every 50 ms
    return [(0.05 * (i + 1), f, s) for i, (f, s) in enumerate(frames)]


def decatur() -> list[tuple[float, bytes, int | None]]:
    return [
        (0.050, b"?000\r", None),
        (0.100, b"+287.4\r", None),
        (0.194, b"-286.0\r", 3),  # +94 ms
        (0.289, b"?288.8\r", None),  # +95 ms
        (0.330, b"OK\n\r", None),  # a command reply on its own
        (0.385, b"28OK9.1\r", 4),  # +96 ms, reply landed inside the data
        (0.486, b"+290.5\r", None),  # +101 ms
    ]


def main() -> None:
    for name, fn in (
        ("plain", plain),
        ("stalker_a", stalker_a),
        ("stalker_be", stalker_be),
        ("decatur", decatur),
    ):
        save_recording(HERE / f"chrono_{name}.jsonl", to_chunks(fn()))


if __name__ == "__main__":
    main()
