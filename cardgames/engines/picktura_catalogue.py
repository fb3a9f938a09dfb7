"""The twelve artworks of this Picktura edition: pure data, no Django.

Each card shows one quarter of one of these works, drawn by the project "in the
manner of" the original (SVG), so every artist must have died before 1956 and
every cartel says "d'après". Titles, artists, death years and dates are facts
checked against the holding museums' own pages where possible.

* ``title`` is the French title shown to pupils, marked for translation.
* ``title_original`` is the title in the language the work is catalogued in
  (the artist's language when it is known; for Taeuber-Arp, MoMA's English
  title, because no original-language title is documented), with
  ``title_original_language`` as an ISO 639-1 code. It is never translated.
* ``year`` is the year the work was finished; ``year_label`` is what the cartel
  prints (a span when the work took more than one year).
* ``colours`` and ``shapes`` are the dominant ones, in English (they are data for
  whoever draws the SVGs, not text shown to pupils). Adjacent numbers were given
  contrasting palettes so the twelve stay apart even from a single quarter.

The strings pupils see go through ``_``, a no-op marker defined here so that
``makemessages`` (xgettext keyword ``_``) extracts them without this module
importing Django; the UI calls ``gettext`` on them at display time.
"""

from __future__ import annotations

from typing import Final, TypedDict


def _(message: str) -> str:
    """Mark ``message`` for extraction only; translation happens in the UI."""
    return message


class Artwork(TypedDict):
    number: int
    title: str
    title_original: str
    title_original_language: str
    artist: str
    artist_died: int
    year: int
    year_label: str
    cartel: str
    colours: tuple[str, ...]
    shapes: tuple[str, ...]


# The UI writes the credit of every card and cartel this way: the images are the
# project's own drawings after the works, never reproductions.
CREDIT_PREFIX: Final[str] = _("d'après")
CREDIT_FORMAT: Final[str] = _("d'après {artist}, « {title} », {year}")

# Only works whose authors died before this year are in the public domain
# everywhere the project is used (70 years after death, rounded to a year).
PUBLIC_DOMAIN_DEATH_BEFORE: Final[int] = 1956

ARTWORKS: Final[tuple[Artwork, ...]] = (
    {
        "number": 1,
        "title": _("Composition avec rouge, noir, jaune, bleu et gris"),
        "title_original": "Compositie met rood, zwart, geel, blauw en grijs",
        "title_original_language": "nl",
        "artist": "Piet Mondrian",
        "artist_died": 1944,
        "year": 1921,
        "year_label": "1921",
        "cartel": _(
            "Piet Mondrian ne peint que des lignes noires bien droites et des rectangles "
            "de couleurs pures. Avec très peu de choses, il cherche l'équilibre parfait."
        ),
        "colours": ("red", "yellow", "blue", "black", "grey", "white"),
        "shapes": ("thick black horizontal and vertical lines", "rectangles"),
    },
    {
        "number": 2,
        "title": _("Carré noir"),
        "title_original": "Чёрный супрематический квадрат",
        "title_original_language": "ru",
        "artist": "Kazimir Malévitch",
        "artist_died": 1935,
        "year": 1915,
        "year_label": "1915",
        "cartel": _(
            "Kazimir Malévitch peint un grand carré noir sur un fond blanc, et rien d'autre. "
            "Il voulait une peinture qui ne montre aucun objet, seulement une forme et une couleur."
        ),
        "colours": ("black", "white"),
        "shapes": ("one large square", "wide white border"),
    },
    {
        "number": 3,
        "title": _("Composition VIII"),
        "title_original": "Komposition VIII",
        "title_original_language": "de",
        "artist": "Vassily Kandinsky",
        "artist_died": 1944,
        "year": 1923,
        "year_label": "1923",
        "cartel": _(
            "Des cercles, des triangles et des lignes semblent flotter et danser sur la toile. "
            "Vassily Kandinsky aimait la musique et voulait des tableaux qu'on écoute avec les yeux."
        ),
        "colours": ("black", "violet", "yellow", "red", "blue", "cream"),
        "shapes": ("concentric circles", "triangles", "thin straight lines", "chequerboard"),
    },
    {
        "number": 4,
        "title": _("Château et soleil"),
        "title_original": "Burg und Sonne",
        "title_original_language": "de",
        "artist": "Paul Klee",
        "artist_died": 1940,
        "year": 1928,
        "year_label": "1928",
        "cartel": _(
            "Avec des carrés, des rectangles et des triangles de couleurs chaudes, "
            "Paul Klee construit un château. Un soleil rond brille au-dessus des tours."
        ),
        "colours": ("orange", "red", "ochre", "brown", "green", "blue"),
        "shapes": ("tiled squares", "triangular roofs", "one disc"),
    },
    {
        "number": 5,
        "title": _("Formes circulaires"),
        "title_original": "Formes circulaires",
        "title_original_language": "fr",
        "artist": "Robert Delaunay",
        "artist_died": 1941,
        "year": 1930,
        "year_label": "1930",
        "cartel": _(
            "Robert Delaunay peint des cercles de couleurs vives qui tournent comme des soleils. "
            "Quand ces couleurs se touchent, elles semblent bouger et vibrer."
        ),
        "colours": ("yellow", "orange", "red", "green", "blue", "violet"),
        "shapes": ("concentric rings", "quartered discs"),
    },
    {
        "number": 6,
        "title": _("Composition arithmétique"),
        "title_original": "Aritmetische compositie",
        "title_original_language": "nl",
        "artist": "Theo van Doesburg",
        "artist_died": 1931,
        "year": 1930,
        "year_label": "1929-1930",
        "cartel": _(
            "Des carrés noirs de plus en plus grands s'alignent sur une diagonale du tableau. "
            "Theo van Doesburg voulait peindre avec la précision d'un calcul."
        ),
        "colours": ("black", "white", "grey"),
        "shapes": ("four tilted squares of growing size", "diagonal", "fine grid"),
    },
    {
        "number": 7,
        "title": _("Les Dix Plus Grands, n° 7, L'Âge adulte"),
        "title_original": "De tio största, nr 7, Mannaåldern, grupp IV",
        "title_original_language": "sv",
        "artist": "Hilma af Klint",
        "artist_died": 1944,
        "year": 1907,
        "year_label": "1907",
        "cartel": _(
            "Hilma af Klint peint d'immenses tableaux, plus hauts qu'une porte, pleins de fleurs, "
            "de spirales et de lettres. Celui-ci raconte l'âge adulte, une des étapes de la vie."
        ),
        "colours": ("pink", "orange", "lilac", "yellow", "blue", "white"),
        "shapes": ("flower rosettes", "spirals", "curling letters"),
    },
    {
        "number": 8,
        "title": _("Architectonique picturale"),
        "title_original": "Живописная архитектоника",
        "title_original_language": "ru",
        "artist": "Lioubov Popova",
        "artist_died": 1924,
        "year": 1917,
        "year_label": "1917",
        "cartel": _(
            "Lioubov Popova superpose des formes pointues et colorées, comme des papiers découpés. "
            "Elle construisait sa peinture comme on construit un bâtiment."
        ),
        "colours": ("red", "black", "grey", "pink", "white"),
        "shapes": ("overlapping slanted planes", "large triangle", "trapezoids"),
    },
    {
        "number": 9,
        "title": _("Composition de cercles et d'angles superposés"),
        "title_original": "Composition of Circles and Overlapping Angles",
        "title_original_language": "en",
        "artist": "Sophie Taeuber-Arp",
        "artist_died": 1943,
        "year": 1930,
        "year_label": "1930",
        "cartel": _(
            "Sophie Taeuber-Arp assemble des cercles et des angles de couleur qui se chevauchent. "
            "Elle était peintre, danseuse et créatrice de marionnettes et de tissus."
        ),
        "colours": ("blue", "red", "black", "white", "light grey"),
        "shapes": ("circles", "overlapping right angles"),
    },
    {
        "number": 10,
        "title": _("L'Escargot"),
        "title_original": "L'Escargot",
        "title_original_language": "fr",
        "artist": "Henri Matisse",
        "artist_died": 1954,
        "year": 1953,
        "year_label": "1953",
        "cartel": _(
            "Henri Matisse découpe des formes dans des feuilles de papier peintes à la gouache. "
            "Les morceaux de couleur tournent en spirale, comme la coquille d'un escargot."
        ),
        "colours": ("orange", "green", "blue", "violet", "red", "white"),
        "shapes": ("torn rectangles in a spiral", "orange frame"),
    },
    {
        "number": 11,
        "title": _("Les Disques"),
        "title_original": "Les Disques",
        "title_original_language": "fr",
        "artist": "Fernand Léger",
        "artist_died": 1955,
        "year": 1918,
        "year_label": "1918",
        "cartel": _(
            "Fernand Léger aime la ville moderne, ses machines et ses couleurs vives. "
            "Ses disques ressemblent à des roues ou à des signaux qui tournent."
        ),
        "colours": ("red", "yellow", "blue", "green", "black", "white"),
        "shapes": ("discs", "half discs", "bands", "diagonal bars"),
    },
    {
        "number": 12,
        "title": _("Cheval bleu I"),
        "title_original": "Blaues Pferd I",
        "title_original_language": "de",
        "artist": "Franz Marc",
        "artist_died": 1916,
        "year": 1911,
        "year_label": "1911",
        "cartel": _(
            "Franz Marc peint un jeune cheval tout bleu au milieu de collines aux couleurs vives. "
            "Il peignait les animaux tels qu'il les ressentait, pas tels qu'on les voit."
        ),
        "colours": ("blue", "red", "yellow", "green", "violet"),
        "shapes": ("horse silhouette", "rounded hills"),
    },
)

ARTWORK_BY_NUMBER: Final[dict[int, Artwork]] = {work["number"]: work for work in ARTWORKS}
