"""Draw the game's tiles and faces and synthesize its sounds.

Run from the project folder:  python tools/make_assets.py
It rewrites images/*.png and sounds/*.wav, and copies the chapter's own
pictures and sounds into chapter/images and chapter/sounds, because pgzero
looks for them beside the script it runs. Everything is drawn with pygame
and synthesized with the standard library, so the art is our own and anyone
can change it and make it again. The output is the same on every run.
"""
import math
import os
import random
import shutil
import struct
import sys
import wave

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402  (SDL must be told to stay headless first)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
import scene  # noqa: E402  (the game's modules, for the sizes and colours)
import viewport  # noqa: E402
IMAGES = os.path.join(ROOT, "images")
SOUNDS = os.path.join(ROOT, "sounds")
CHAPTER = os.path.join(ROOT, "chapter")

# The files the chapter's lesson steps use: the book's pictures and sounds.
CHAPTER_IMAGES = ["minesweep_block", "minesweep_flag", "minesweep_bomb"] + [
    "minesweep_number%d" % n for n in range(9)]
CHAPTER_SOUNDS = ["bomb", "win"]

TILE = 25            # tile size, px (SIZE in minesweep.py)
# The tile sizes the game's view uses, px: each is drawn at its own size.
SIZES = viewport.every_size(TILE)
FACE = 28            # face button size, px
RATE = 22050         # sample rate, Hz (the rate pgzero opens the mixer at)

GREY = (192, 192, 192)
LIGHT = (255, 255, 255)
DARK = (128, 128, 128)
BLACK = (0, 0, 0)
RED = (255, 0, 0)
# The numbers' colours (scene.py says why these; a test checks how far
# each stands out from the tile).
NUMBER_COLOURS = scene.NUMBER_COLOURS


def scaled(value, size):
    """A length drawn for a 25 px tile, made for a tile of this size."""
    return max(1, round(value * size / TILE))


def raised_tile(size):
    """A closed tile: grey with a light top-left and a dark bottom-right bevel."""
    s = pygame.Surface((size, size))
    s.fill(GREY)
    for i in range(scaled(3, size)):
        pygame.draw.line(s, LIGHT, (0, i), (size - 1 - i, i))
        pygame.draw.line(s, LIGHT, (i, 0), (i, size - 1 - i))
        pygame.draw.line(s, DARK, (size - 1 - i, i), (size - 1 - i, size - 1))
        pygame.draw.line(s, DARK, (i, size - 1 - i), (size - 1, size - 1 - i))
    return s


def flat_tile(size, colour=GREY):
    """An open tile: flat, with a one-pixel grid line on its top and left."""
    s = pygame.Surface((size, size))
    s.fill(colour)
    pygame.draw.line(s, DARK, (0, 0), (size - 1, 0))
    pygame.draw.line(s, DARK, (0, 0), (0, size - 1))
    return s


def draw_mine(s):
    """A black mine with eight spikes and a white glint, in the tile's middle."""
    size = s.get_width()
    c = size // 2 + 1
    for a in range(8):
        ang = a * math.pi / 4
        r = scaled(9 if a % 2 == 0 else 7, size)
        end = (c + round(r * math.cos(ang)), c + round(r * math.sin(ang)))
        pygame.draw.line(s, BLACK, (c, c), end, 2)
    pygame.draw.circle(s, BLACK, (c, c), scaled(6, size))
    glint = scaled(3, size)
    pygame.draw.rect(s, LIGHT, (c - glint, c - glint, glint, glint))


def draw_flag(s):
    """A red flag on a black pole with a two-step base."""
    size = s.get_width()

    def at(x, y):
        """A point of the 25 px drawing, on this tile."""
        return (round(x * size / TILE), round(y * size / TILE))

    pygame.draw.polygon(s, RED, [at(13, 5), at(13, 13), at(6, 9)])
    pygame.draw.line(s, BLACK, at(13, 5), at(13, 18), 2)
    pygame.draw.rect(s, BLACK, (*at(9, 17), scaled(9, size), 2))
    pygame.draw.rect(s, BLACK, (*at(7, 19), scaled(13, size), 2))


def text_on(s, text, colour, size):
    """Draw bold text centred on a surface; size is for a 25 px tile."""
    tile = s.get_width()
    font = pygame.font.Font(None, scaled(size, tile))
    font.set_bold(True)
    img = font.render(text, True, colour)
    s.blit(img, img.get_rect(center=(tile // 2 + 1, tile // 2 + 1)))


def tiles(size=TILE):
    """Every tile image of the game at this size, by name."""
    out = {"minesweep_block": raised_tile(size)}
    flag = raised_tile(size)
    draw_flag(flag)
    out["minesweep_flag"] = flag
    question = raised_tile(size)
    text_on(question, "?", BLACK, 26)
    out["minesweep_question"] = question
    for n in range(9):
        s = flat_tile(size)
        if n:
            text_on(s, str(n), NUMBER_COLOURS[n], 28)
        out["minesweep_number%d" % n] = s
    bomb = flat_tile(size)
    draw_mine(bomb)
    out["minesweep_bomb"] = bomb
    red = flat_tile(size, RED)
    draw_mine(red)
    out["minesweep_bomb_red"] = red
    wrong = flat_tile(size)
    draw_mine(wrong)
    cross = scaled(4, size)
    pygame.draw.line(wrong, RED, (cross, cross), (size - cross, size - cross), 3)
    pygame.draw.line(wrong, RED, (cross, size - cross), (size - cross, cross), 3)
    out["minesweep_wrong"] = wrong
    return out


def face(kind):
    """The face button: a smile while playing, sunglasses on a win, X eyes on a loss."""
    s = pygame.Surface((FACE, FACE))
    s.fill(GREY)
    pygame.draw.rect(s, DARK, (0, 0, FACE, FACE), 1)
    c = FACE // 2
    pygame.draw.circle(s, (255, 255, 0), (c, c), 11)
    pygame.draw.circle(s, BLACK, (c, c), 11, 1)
    if kind == "win":
        pygame.draw.rect(s, BLACK, (c - 8, c - 4, 7, 4))
        pygame.draw.rect(s, BLACK, (c + 1, c - 4, 7, 4))
        pygame.draw.line(s, BLACK, (c - 10, c - 4), (c + 9, c - 4))
    elif kind == "lose":
        for x in (c - 5, c + 4):
            pygame.draw.line(s, BLACK, (x - 2, c - 5), (x + 2, c - 1))
            pygame.draw.line(s, BLACK, (x - 2, c - 1), (x + 2, c - 5))
    else:
        pygame.draw.rect(s, BLACK, (c - 5, c - 4, 2, 3))
        pygame.draw.rect(s, BLACK, (c + 3, c - 4, 2, 3))
    if kind == "lose":
        pygame.draw.arc(s, BLACK, (c - 5, c + 3, 10, 7), 0, math.pi, 1)
    else:
        pygame.draw.arc(s, BLACK, (c - 6, c - 2, 12, 9), math.pi, 2 * math.pi, 1)
    return s


def write_wav(name, samples):
    """Write mono 16-bit samples in -1..1 to sounds/NAME.wav."""
    frames = b"".join(
        struct.pack("<h", int(max(-1.0, min(1.0, v)) * 32000)) for v in samples)
    with wave.open(os.path.join(SOUNDS, name + ".wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(frames)


def bomb_sound():
    """An explosion: a falling low thump under a burst of decaying noise."""
    rnd = random.Random(1)
    out = []
    low = 0.0
    for i in range(int(RATE * 0.7)):
        t = i / RATE
        low += 0.12 * (rnd.uniform(-1, 1) - low)     # low-pass the noise
        thump = math.sin(2 * math.pi * (60 - 30 * t) * t)
        out.append((0.9 * low * 3 + 0.6 * thump) * math.exp(-5 * t))
    return out


def win_sound():
    """A short rising arpeggio, C E G C, with soft edges on each note."""
    out = []
    for freq in (523.25, 659.25, 783.99, 1046.5):
        n = int(RATE * 0.13)
        for i in range(n):
            t = i / RATE
            env = min(1.0, i / 200) * math.exp(-6 * t)
            out.append(0.5 * env * (math.sin(2 * math.pi * freq * t)
                                    + 0.3 * math.sin(4 * math.pi * freq * t)))
    return out


def main():
    """Write every image and sound."""
    pygame.init()
    os.makedirs(IMAGES, exist_ok=True)
    os.makedirs(SOUNDS, exist_ok=True)
    for size in SIZES:
        for name, surf in tiles(size).items():
            suffix = "" if size == TILE else "_%d" % size
            pygame.image.save(surf, os.path.join(IMAGES, name + suffix + ".png"))
    for kind in ("play", "win", "lose"):
        pygame.image.save(face(kind), os.path.join(IMAGES, "face_%s.png" % kind))
    write_wav("bomb", bomb_sound())
    write_wav("win", win_sound())
    print("wrote", len(os.listdir(IMAGES)), "images and 2 sounds")
    copy_for_chapter()


def copy_for_chapter():
    """Copy the chapter's pictures and sounds into chapter/, byte for byte."""
    for folder, names, ext in (("images", CHAPTER_IMAGES, ".png"),
                               ("sounds", CHAPTER_SOUNDS, ".wav")):
        os.makedirs(os.path.join(CHAPTER, folder), exist_ok=True)
        for name in names:
            shutil.copyfile(os.path.join(ROOT, folder, name + ext),
                            os.path.join(CHAPTER, folder, name + ext))
    print("copied", len(CHAPTER_IMAGES), "images and", len(CHAPTER_SOUNDS),
          "sounds into chapter/")


if __name__ == "__main__":
    main()
