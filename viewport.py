# The view of minesweep: which part of the board the window shows, at what
# tile size, and where. A board of 100 x 200 tiles at the book's 25 px would
# need a window 5000 px wide, so the window is never larger than the
# desktop: the tiles get smaller and, if even that is too big, the window
# shows part of the board and scrolls.
#
# Plain numbers in and out, with no pgzero or pygame, so the tests need no
# screen. Keep this file ASCII only, like minesweep.py.
from collections import namedtuple

BAR = 40                 # height of the status bar above the grid, px
FOOT = 30                # least height of the footer below the grid, px
MIN_WIDTH = 225          # narrowest window, so the status bar fits, px
MIN_HEIGHT = 160         # least height of the board's part of the window, px
SMALLER = (20, 16)       # tile sizes smaller than the book's, px
LARGER = (32, 40, 50)    # ... and larger, for a projector (Z, and slow motion)
FULL = (28, 36, 44, 48, 56, 64, 72)   # ... and the ones full screen fits with too
ROOM = (0, 80)           # what the window leaves free of the desktop for a
                         # title bar and a task bar, px
PANEL = 600              # width of the slow-motion panel (its code at 18 px), px
WIDE_PANEL = 720         # ... on a desktop of at least WIDE px (its code larger), px
WIDE = (1600, 900)
PANEL_HEIGHT = 680       # least height of the window while it shows, px
FULL_PANEL = (0.5, 644, 860)   # the panel in full screen: this share of the
                         # screen's width, within these, px (at the least, room for
                         # the queue's longest line of code, 52 letters at 20 px)
WHEEL_STEP = 3           # rows or columns one turn of the wheel scrolls
FACE_SIZE = 28           # the face button is a square this big, px

# What the picture of the tiles in view depends on: the tile size, px, the
# first row and column in view, how many rows and columns are in view, and
# the replay showing (its id and its position), if one is.
TilesKey = namedtuple("TilesKey", "tile row col rows cols replay")


class View:
    """Which tiles the window shows and where: the first row and column in
    view, how many of each, the tile size and the window's size, px."""

    def __init__(self, board_rows, board_cols, tile, rows, cols, panel, footer,
                 least=(MIN_WIDTH, MIN_HEIGHT)):
        """A view of a board of board_rows x board_cols at this tile size,
        showing rows x cols tiles, with the slow-motion panel this many px
        wide (0: none) and a footer this many px high; the board's part of
        the window is at least least (width, height) px."""
        self.board_rows, self.board_cols = board_rows, board_cols
        self.tile = tile
        self.rows, self.cols = rows, cols
        self.row = self.col = 0
        self.footer = footer
        self.least = least
        # A grid smaller than the least board area is centred in it.
        self.left = (self.board_width() - tile * cols) // 2
        self.top = BAR + (self.board_height() - tile * rows) // 2
        self.panel = panel
        self.width = self.board_width() + panel
        self.height = BAR + self.board_height() + footer

    def board_width(self):
        """The width of the board's part of the window, px."""
        return max(self.tile * self.cols, self.least[0])

    def board_height(self):
        """The height of the board's part of the window, px."""
        return max(self.tile * self.rows, self.least[1])

    def board_area(self):
        """The board's part of the window, between the status bar and the
        footer: (left, top, width, height), px."""
        return (0, BAR, self.board_width(), self.board_height())

    def face_rect(self):
        """Where the face button is: (left, top, width, height), px."""
        return ((self.board_width() - FACE_SIZE) // 2, (BAR - FACE_SIZE) // 2,
                FACE_SIZE, FACE_SIZE)

    def whole(self):
        """True if every tile of the board is in view."""
        return self.rows == self.board_rows and self.cols == self.board_cols

    def tile_rect(self, row, col):
        """Where the view shows a tile: (left, top, width, height), px."""
        return (self.left + (col - self.col) * self.tile,
                self.top + (row - self.row) * self.tile, self.tile, self.tile)

    def in_view(self, row, col):
        """True if the tile at this row and column is in view."""
        return (self.row <= row < self.row + self.rows
                and self.col <= col < self.col + self.cols)

    def cell_under(self, pos):
        """(row, col) of the tile under a point of the window, or None."""
        col = (int(pos[0]) - self.left) // self.tile
        row = (int(pos[1]) - self.top) // self.tile
        if 0 <= row < self.rows and 0 <= col < self.cols:
            return self.row + row, self.col + col
        return None

    def scroll(self, drows, dcols):
        """Move the view by rows and columns, staying on the board."""
        self.row = min(max(self.row + drows, 0), self.board_rows - self.rows)
        self.col = min(max(self.col + dcols, 0), self.board_cols - self.cols)

    def wheel(self, up, sideways, pos, cursor):
        """The mouse wheel at pos scrolls the rows (sideways: the columns):
        the cursor, which stays on the mouse's tile if it was there."""
        under = self.cell_under(pos)
        step = -WHEEL_STEP if up else WHEEL_STEP
        self.scroll(0 if sideways else step, step if sideways else 0)
        return self.cell_under(pos) if cursor is not None and cursor == under else cursor

    def follow(self, row, col):
        """Bring this tile into view: a step at a time when it is next to the
        view's edge (as the cursor moves), else with the tile in the middle."""
        if not self.in_view(row, col):
            self.scroll(row - self.rows // 2 - self.row, col - self.cols // 2 - self.col)
            return
        # Keep a tile to spare round the cursor where the view has room.
        if self.rows > 2:
            self.scroll(min(row - 1 - self.row, 0)
                        + max(row + 2 - self.row - self.rows, 0), 0)
        if self.cols > 2:
            self.scroll(0, min(col - 1 - self.col, 0)
                        + max(col + 2 - self.col - self.cols, 0))

    def moved(self, cursor, drow, dcol, pointer):
        """The keyboard cursor (row, col) after an arrow, staying on the board;
        with none yet, the tile under the mouse at pointer, or the middle of
        the view."""
        if cursor is None:
            cursor = pointer and self.cell_under(pointer)
            if cursor is None:
                return self.row + self.rows // 2, self.col + self.cols // 2
        return (min(max(cursor[0] + drow, 0), self.board_rows - 1),
                min(max(cursor[1] + dcol, 0), self.board_cols - 1))


class Canvas:
    """What the window shows now, so that the game's draw() can skip what
    is the same (the game keeps its pictures here)."""

    def __init__(self):
        """Nothing drawn yet."""
        self.scene = None        # the window and the shapes last drawn
        self.grid = None         # a picture of the tiles in view
        self.grid_view = None    # what that picture was drawn for
        self.changed = set()     # tiles whose picture changed since then
        self.board = None        # the board the view was made for
        self.fitted_to = None    # ... and what else it was fitted to
        self.counted = None      # the tiles' state the board was last seen in
        self.seen = None         # ... and the board then, as the window shows it
        self.pictures = {}       # picture name -> the picture
        self.tints = {}          # (colour, size) -> a see-through tile

    def refit(self, board, fitted_to, focus):
        """Whether the view must be fitted again, for this board (the game's
        tiles), what else it is fitted to and a tile to bring into view (or
        None): None when nothing changed, else whether the board is the same
        (then the view keeps its place; a new board shows its top left)."""
        if self.board is board and self.fitted_to == fitted_to and focus is None:
            return None
        same, self.board, self.fitted_to = self.board is board, board, fitted_to
        return same

    def board_seen(self, counted, make):
        """The board as the window shows it, made (make()) again only when
        counted, the tiles' state, is not the one it was made in."""
        if self.counted != counted:
            self.counted, self.seen = counted, make()
        return self.seen

    def picture(self, name, load):
        """A picture, loaded (load(name)) only once."""
        if name not in self.pictures:
            self.pictures[name] = load(name)
        return self.pictures[name]

    def tint(self, colour, size, make):
        """A see-through tile of this colour, made (make(colour, size)) only once."""
        if (colour, size) not in self.tints:
            self.tints[colour, size] = make(colour, size)
        return self.tints[colour, size]


def cells_in(areas, rows, cols):
    """The cells of areas, each (rows, columns) as ranges, on a board of
    rows x cols (a view larger than the board reaches past it)."""
    return [row * cols + col for down, across in areas for row in down if row < rows
            for col in across if col < cols]


def window_room(desktop):
    """The largest window a desktop of (width, height) px has room for."""
    width, height = desktop
    return max(width - ROOM[0], MIN_WIDTH), max(height - ROOM[1], 2 * MIN_HEIGHT)


def panel_width(desktop):
    """How wide the slow-motion panel is on a desktop of (width, height), px."""
    return WIDE_PANEL if desktop[0] >= WIDE[0] and desktop[1] >= WIDE[1] else PANEL


def every_size(book):
    """Every tile size the view may show, the book's first (each tile is
    drawn at each of them)."""
    return (book,) + SMALLER + LARGER + FULL


def tile_sizes(book):
    """The tile sizes the view fits a board with: the book's, then smaller."""
    return (book,) + SMALLER


def whole_fits(rows, cols, size, room, footer_for):
    """True if a board of rows x cols fits whole at this tile size in room
    (width, height), with its status bar and its footer (footer_for)."""
    footer = max(FOOT, footer_for(max(cols * size, MIN_WIDTH), room[1] // 3))
    return cols * size <= room[0] and rows * size <= room[1] - BAR - footer


def zoom_sizes(book, rows, cols, desktop, panel, footer_for):
    """The tile sizes Z goes through, in turn: the book's, the larger ones
    at which the whole board fits on this desktop, then the smaller ones."""
    room_width, room_height = window_room(desktop)
    room = (room_width - (panel_width(desktop) if panel else 0), room_height)
    return (book,) + tuple(size for size in LARGER
                           if whole_fits(rows, cols, size, room, footer_for)) + SMALLER


def next_zoom(tile, book, rows, cols, desktop, panel, footer_for):
    """Z: the tile size after this one in zoom_sizes (the first if it is not there)."""
    sizes = zoom_sizes(book, rows, cols, desktop, panel, footer_for)
    return sizes[(sizes.index(tile) + 1) % len(sizes) if tile in sizes else 0]


def choose_tile(rows, cols, room, sizes, zoom, footer_for):
    """The tile size: zoom if chosen (with Z), else the largest size at which
    the whole board fits in room (width, height), else the smallest."""
    if zoom is not None:
        return zoom
    for size in sizes:
        if whole_fits(rows, cols, size, room, footer_for):
            return size
    return sizes[-1]


def fit(rows, cols, desktop, sizes, zoom, panel, footer_for, old=None):
    """The view of a board of rows x cols on this desktop, never larger than
    it: with the slow-motion panel or not, and a footer of footer_for(width)
    px below a board part that wide. The old view's place is kept if it is
    of the same board."""
    room_width, room_height = window_room(desktop)
    panel = panel_width(desktop) if panel else 0
    room_width -= panel
    # Slow motion is for a class to watch: the largest tiles the whole
    # board fits at, so that the call numbers read from the back.
    if panel and zoom is None:
        sizes = tuple(sorted(LARGER, reverse=True)) + sizes
    # The footer needs the width first, and the rows in view need the footer.
    tile = choose_tile(rows, cols, (room_width, room_height), sizes, zoom, footer_for)
    view_cols = min(cols, max(room_width // tile, 1))
    footer = max(FOOT, footer_for(max(tile * view_cols, MIN_WIDTH), room_height // 3))
    view_rows = min(rows, max((room_height - BAR - footer) // tile, 1))
    view = View(rows, cols, tile, view_rows, view_cols, panel, footer)
    if panel:
        view.height = max(view.height, min(PANEL_HEIGHT, room_height))
    if old is not None and (old.board_rows, old.board_cols) == (rows, cols):
        view.scroll(old.row, old.col)
    return view


def full_panel(screen):
    """How wide the slow-motion panel is in full screen on a screen of
    (width, height), px."""
    share, narrowest, widest = FULL_PANEL
    return min(max(int(screen[0] * share), narrowest), widest)


def full_zooms(rows, cols, room, book):
    """The tile sizes of full screen, in Z's turn: each at which a board of
    rows x cols fits whole in room (width, height) px, the largest first;
    then, scrolling, the book's and the smaller ones that do not fit."""
    sizes = sorted(set(every_size(book)), reverse=True)
    fits = tuple(size for size in sizes if cols * size <= room[0] and rows * size <= room[1])
    return fits + tuple(size for size in sizes if size <= book and size not in fits)


def full_tile(rows, cols, room, book):
    """Full screen's own tile size: the largest at which the whole board
    fits in room (width, height) px, else the smallest, scrolling."""
    sizes = full_zooms(rows, cols, room, book)
    fits = [size for size in sizes if cols * size <= room[0] and rows * size <= room[1]]
    return fits[0] if fits else min(sizes)


def next_full_zoom(tile, rows, cols, screen, book, panel, footer_for):
    """Z in full screen: the tile size after this one in full_zooms (the
    first if it is not there)."""
    view = fit_full(rows, cols, screen, book, None, panel, footer_for)
    sizes = full_zooms(rows, cols, view.least, book)
    return sizes[(sizes.index(tile) + 1) % len(sizes) if tile in sizes else 0]


def fit_full(rows, cols, screen, book, zoom, panel, footer_for, old=None):
    """The view of a board of rows x cols that fills a screen of (width,
    height) px: the largest tile size (the book's, or another) at which the whole board fits (zoom
    if chosen with Z), the board centred, the footer as wide as the board's
    part; a board too big scrolls at the smallest size. The old view's
    place is kept if it is of the same board."""
    width, height = screen
    # On a screen too narrow for both, the board's part keeps its least width.
    panel = min(full_panel(screen), max(width - MIN_WIDTH, 0)) if panel else 0
    room = (max(width - panel, MIN_WIDTH), max(height, BAR + FOOT + MIN_HEIGHT))
    # The footer is as wide as the board's part whatever the tile size.
    footer = max(FOOT, footer_for(room[0], room[1] // 3))
    high = room[1] - BAR - footer
    tile = zoom or full_tile(rows, cols, (room[0], high), book)
    view = View(rows, cols, tile, min(rows, max(high // tile, 1)),
                min(cols, max(room[0] // tile, 1)), panel, footer, (room[0], high))
    if old is not None and (old.board_rows, old.board_cols) == (rows, cols):
        view.scroll(old.row, old.col)
    return view


# What a view is fitted to besides the board: the desktop's (or in full
# screen the screen's) size, px; the book's tile size, px; the size chosen
# with Z (None: the largest that fits); whether the slow-motion panel shows;
# whether the game fills the screen; and footer_for(width, most), the
# footer's height for a board part that wide, px.
Fitting = namedtuple("Fitting", "desktop book zoom panel full footer_for")


def fitted(board, fitting, old=None):
    """The view of a board (anything with rows and cols) as fitting asks:
    in a window (fit) or filling the screen (fit_full)."""
    if fitting.full:
        return fit_full(board.rows, board.cols, fitting.desktop, fitting.book,
                        fitting.zoom, fitting.panel, fitting.footer_for, old)
    return fit(board.rows, board.cols, fitting.desktop, tile_sizes(fitting.book),
               fitting.zoom, fitting.panel, fitting.footer_for, old)


def next_tile(tile, board, fitting):
    """Z: the tile size after this one, in a window (next_zoom) or in full
    screen (next_full_zoom)."""
    if fitting.full:
        return next_full_zoom(tile, board.rows, board.cols, fitting.desktop, fitting.book,
                              fitting.panel, fitting.footer_for)
    return next_zoom(tile, fitting.book, board.rows, board.cols, fitting.desktop,
                     fitting.panel, fitting.footer_for)


def repaint(old, new):
    """What of the picture of the tiles in view to draw again when its view
    goes from old to new, each a TilesKey or None: (whether to draw it
    whole, the (rows, cols) to shift it by, and the (rows, cols) ranges of
    the tiles that came into view)."""
    row, col, rows, cols = new.row, new.col, new.rows, new.cols
    in_view = (range(row, row + rows), range(col, col + cols))
    # A replay shows tiles closed that are open: draw them all while it
    # shows, and once more when it ends.
    if (old is None or old.tile != new.tile or (old.rows, old.cols) != (rows, cols)
            or new.replay or old.replay):
        return True, (0, 0), [in_view]
    down, right = row - old.row, col - old.col
    new_rows = (range(max(row, old.row + rows), row + rows) if down > 0
                else range(row, min(row + rows, old.row)))
    new_cols = (range(max(col, old.col + cols), col + cols) if right > 0
                else range(col, min(col + cols, old.col)))
    return False, (down, right), [(new_rows, in_view[1]), (in_view[0], new_cols)]
