import JournalKit

/// One language of the synthetic journals: its most common words, written out, and the
/// syllables (or characters) its long tail of rarer words is made of.
struct CorpusLanguage: Sendable {
    let code: String
    /// Share of entries in this language, out of the sum over all languages.
    let weight: Int
    /// The most frequent words, most frequent first.
    let common: [String]
    /// Pieces that rarer words are built from.
    let pieces: [String]
    /// How many pieces a rare word has.
    let piecesPerWord: ClosedRange<Int>
    /// Words are separated by spaces (false for Japanese and Chinese).
    let spaced: Bool
    let sentenceEnd: String
    let comma: String

    static let all: [CorpusLanguage] = [
        CorpusLanguage(
            code: "en", weight: 35,
            common: [
                "the", "I", "and", "to", "a", "of", "was", "in", "it", "that", "my", "we", "for", "on", "with",
                "is", "at", "but", "had", "me", "so", "this", "be", "day", "today", "not", "went", "all", "out",
                "up", "about", "time", "were", "she", "he", "they", "got", "just", "back", "then", "home", "after",
                "morning", "work", "night", "some", "friend", "really", "good", "long", "walk", "coffee", "rain",
                "dinner", "felt", "tired", "again", "little", "there", "them", "think", "these", "their", "café",
                "naïve", "résumé", "don't", "I'm", "it's", "week", "book", "train", "weather", "garden", "kitchen",
            ],
            pieces: [
                "bra", "ter", "son", "ing", "ven", "lo", "mar", "tin", "ple", "dor", "ful", "ness", "ca", "ri", "sto",
                "ble", "ment", "pre", "con", "ha", "wi", "nder", "gle", "ost", "ack", "ell", "fro", "sh", "tion", "er",
            ],
            piecesPerWord: 2...4, spaced: true, sentenceEnd: ".", comma: ","),
        CorpusLanguage(
            code: "fr", weight: 12,
            common: [
                "le", "la", "de", "et", "je", "à", "un", "une", "les", "des", "en", "pas", "que", "il", "elle",
                "nous", "au", "du", "est", "était", "aujourd'hui", "très", "après", "café", "crème", "journée",
                "été", "déjà", "même", "où", "voilà", "fenêtre", "forêt", "château", "hôpital", "théâtre", "garçon",
                "fraîche", "bientôt", "noël", "coïncidence", "matin", "soir", "pluie", "marché", "pain", "ami",
            ],
            pieces: [
                "ré", "ma", "tion", "ette", "pré", "mon", "lé", "cou", "dé", "ver", "eau", "ière", "ain", "gné",
                "pa", "ti", "que", "ble", "ço", "fê", "ro", "sa", "ne", "lu", "è",
            ],
            piecesPerWord: 2...4, spaced: true, sentenceEnd: ".", comma: ","),
        CorpusLanguage(
            code: "de", weight: 12,
            common: [
                "der", "die", "und", "ich", "das", "ist", "nicht", "zu", "ein", "eine", "wir", "mit", "auf", "den",
                "es", "war", "heute", "für", "über", "schön", "Straße", "müde", "Frühstück", "größer", "Grüße",
                "Mädchen", "Bäcker", "fährt", "Käse", "Wetter", "Regen", "Arbeit", "Abend", "Morgen", "Freund",
                "Spaziergang", "Kaffee", "Buch", "Zug", "Stadt", "weiß", "groß", "Fuß", "außerdem",
            ],
            pieces: [
                "ver", "ge", "schaft", "ung", "lich", "ber", "ün", "stra", "ß", "ke", "tor", "heim", "ö", "wal",
                "ten", "isch", "kei", "än", "mer", "bau", "zu", "feld", "ä",
            ],
            piecesPerWord: 2...4, spaced: true, sentenceEnd: ".", comma: ","),
        CorpusLanguage(
            code: "es", weight: 12,
            common: [
                "de", "la", "que", "el", "en", "y", "a", "los", "se", "del", "las", "un", "por", "con", "no",
                "una", "hoy", "mañana", "niño", "año", "corazón", "también", "después", "café", "está", "más",
                "días", "árbol", "música", "película", "jamón", "pequeño", "señora", "cumpleaños", "lluvia",
                "trabajo", "amigo", "noche", "libro", "tren", "ciudad",
            ],
            pieces: [
                "ción", "ma", "ño", "ra", "bi", "te", "lla", "pe", "rí", "co", "dad", "mien", "to", "á", "se",
                "ga", "ú", "lo", "cu", "na",
            ],
            piecesPerWord: 2...4, spaced: true, sentenceEnd: ".", comma: ","),
        CorpusLanguage(
            code: "ja", weight: 14,
            common: [
                "の", "に", "は", "を", "た", "が", "で", "て", "と", "し", "れ", "さ", "ある", "いる", "も", "する",
                "から", "な", "こと", "として", "い", "や", "れる", "など", "なっ", "ない", "この", "ため",
                "今日", "東京", "友達", "会社", "電車", "天気", "散歩", "朝ご飯", "映画", "時間", "仕事", "家族",
                "コーヒー", "ラーメン", "テレビ", "パソコン", "タワー", "がっこう", "行きました", "食べました",
            ],
            pieces: [
                "日", "本", "人", "大", "学", "生", "会", "社", "中", "山", "川", "田", "新", "聞", "電", "話", "気",
                "分", "時", "間", "国", "語", "書", "店", "東", "京", "駅", "前", "後", "雨", "春", "夏", "秋", "冬",
                "カ", "タ", "ナ", "ラ", "ト", "ス", "ン", "ー", "ミ", "リ",
            ],
            piecesPerWord: 2...3, spaced: false, sentenceEnd: "。", comma: "、"),
        CorpusLanguage(
            code: "ru", weight: 8,
            common: [
                "и", "в", "не", "на", "я", "что", "он", "с", "это", "а", "как", "мы", "сегодня", "было", "ёлка",
                "ещё", "всё", "утром", "вечером", "дождь", "работа", "друг", "книга", "поезд", "кофе", "город",
                "погода", "дома", "очень", "устал", "прогулка", "зима", "лето",
            ],
            pieces: [
                "ра", "но", "ка", "ст", "ви", "ло", "ме", "ён", "ро", "та", "ли", "ко", "ва", "ре", "ни", "ё",
                "ть", "ский", "ов", "ма",
            ],
            piecesPerWord: 2...4, spaced: true, sentenceEnd: ".", comma: ","),
        CorpusLanguage(
            code: "zh", weight: 7,
            common: [
                "的", "了", "我", "是", "在", "不", "和", "有", "人", "这", "今天", "我们", "朋友", "工作", "北京",
                "上海", "咖啡", "下雨", "天气", "晚上", "早上", "吃饭", "学习", "时间", "家人", "公园", "音乐",
            ],
            pieces: [
                "中", "国", "大", "学", "生", "家", "天", "地", "水", "火", "山", "风", "花", "月", "年", "书", "电",
                "话", "明", "白", "心", "爱", "路", "车", "城", "市", "海", "雨",
            ],
            piecesPerWord: 2...3, spaced: false, sentenceEnd: "。", comma: "，"),
    ]
}
