#!/usr/bin/env python3
"""Composes Corpora/sample.jsonl from the hand-written sentences beside this script.

Each entry takes one to four sentences of one language (a few mix two, as real journals
do); dates run over two years with a few shared timestamps, in several time zones. The
random generator is seeded, so the output is the same every run:

    python3 Corpora/sample/compose.py > Corpora/sample.jsonl
"""
import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

sentences = json.loads((Path(__file__).parent / "sentences.json").read_text(encoding="utf-8"))
languages = list(sentences)
weights = [len(sentences[language]) for language in languages]
rng = random.Random(2013)
start = datetime(2023, 1, 1, 7, 0, tzinfo=timezone.utc)
offsets = [timezone.utc, timezone(timedelta(hours=2)), timezone(timedelta(hours=9)), timezone(timedelta(hours=-5))]

date = start
for index in range(300):
    language = rng.choices(languages, weights)[0]
    count = rng.choice([1, 2, 2, 3, 3, 4])
    chosen = rng.sample(sentences[language], min(count, len(sentences[language])))
    if rng.random() < 0.08:
        chosen.append(rng.choice(sentences[rng.choice(languages)]))
    separator = "" if language in ("ja", "zh", "th") else " "
    text = separator.join(chosen)
    if rng.random() < 0.05:
        text += " 🎉"
    if rng.random() < 0.97:
        date = date + timedelta(hours=rng.randint(20, 70), minutes=rng.randint(0, 59))
    zone = rng.choice(offsets)
    print(json.dumps({"date": date.astimezone(zone).isoformat(), "text": text}, ensure_ascii=False))
