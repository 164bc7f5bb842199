"""Words that link to nothing in a log: filler, function words and the words of numeric thresholds."""

from __future__ import annotations

from react_engine.lexicon.time_units import MONTH_ABBREVIATIONS, WEEKDAY_ABBREVIATIONS

FILLER = frozenset(["stuff", "things", "thing", "a", "an", "the", "of", "in", "on", "at", "for", "from", "to", "by", "with", "within", "during", "over", "across", "into", "and", "or", "than", "as", "how", "many", "much", "what", "which", "who", "whose", "when", "where", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "have", "has", "had", "having", "there", "any", "all", "each", "every", "some", "me", "my", "our", "we", "us", "i", "you", "your", "it", "its", "this", "that", "these", "those", "them", "they", "their", "show", "list", "give", "tell", "display", "print", "find", "count", "counted", "number", "numbers", "total", "totals", "time", "times", "amount", "log", "logs", "logged", "line", "lines", "entry", "entries", "event", "events", "record", "records", "row", "rows", "occurrence", "occurrences", "item", "items", "file", "files", "data", "text", "seen", "see", "saw", "occur", "occurred", "occurring", "happen", "happened", "happening", "appear", "appeared", "appearing", "recorded", "report", "reported", "reports", "get", "got", "let", "please", "can", "could", "would", "should", "will", "may", "might", "just", "only", "also", "affected", "affect", "affecting", "experienced", "experience", "experiencing", "hit", "hitting", "had", "see", "shown", "produce", "produced", "unique", "distinct", "different", "separate", "individual", "top", "most", "common", "commonly", "frequent", "frequently", "often", "active", "noisy", "noisiest", "busiest", "biggest", "highest", "largest", "worst", "ones", "one", "kind", "kinds", "type", "types", "per", "each", "every", "ago", "past", "last", "previous", "recent", "recently", "latest", "now", "so", "far", "up", "until", "till", "since", "between", "after", "before", "about", "around", "approximately", "overall", "altogether", "whole", "entire", "here", "exactly", "many", "mention", "mentions", "mentioning", "mentioned", "contain", "contains", "containing", "contained", "matching", "match", "matches", "say", "says", "saying", "attempt", "attempts", "try", "tries", "tried", "trying", "job", "jobs", "run", "runs", "ran", "request", "requests", "response", "responses", "hit", "hits", "call", "calls", "command", "commands", "breakdown", "broken", "down", "split", "distribution", "returned", "returning", "caused", "written", "write", "wrote", "observed", "printed",
              # words of asking, not of the logs
              "requested", "visited", "accessed", "fetched",
              "come", "came", "comes", "coming", "appears", "appear", "appearing", "shows", "showed", "showing",
              "shown", "pop", "pops", "popped", "turn", "turns", "turned", "back", "out", "anything", "something",
              "everything", "looking", "look", "looked", "checking", "check", "triaging", "triage", "investigating",
              "investigate", "debugging", "reviewing", "review", "want", "wanted", "need", "needed", "know", "like",
              "wondering", "curious", "interested", "am", "im", "i'm", "i'd", "we're", "let's", "ok", "okay", "hey",
              "hi", "hello", "thanks", "thank", "pls", "quick", "question", "quickly", "roughly", "approx", "name",
              "names", "named", "id", "ids", "value", "values", "often", "then", "so", "actually", "really",
              "currently", "exist", "exists", "existed", "present", "there's", "what's", "how's", "got", "gets",
              "getting", "went", "made", "make", "makes", "produced", "produce", "produces", "producing", "logging",
              "logs", "emit", "emits", "generate", "generates", "generating", "belong", "belongs", "belonging",
              "related", "regarding", "concerning", "involving", "involved", "associated", "came", "did", "doing",
              "done", "has", "total", "sum", "figure", "figures", "altogether", "overall", "both", "either",
              "tell", "explain", "according", "whole", "full", "complete", "file", "dataset", "set", "sample"])
"""Words that carry no search meaning: a question whose other words are all explained by a rule is understood."""

FUNCTION_WORDS = frozenset({
    "go", "goes", "went", "gone", "going", "take", "takes", "took", "taken", "taking", "said", "tell", "told", "mean",
    "means", "meant", "keep", "keeps", "kept", "seem", "seems", "seemed", "make", "makes", "made", "making", "gets",
    "getting", "through", "throughout", "not", "no", "never", "cannot", "can't", "couldn't", "didn't", "doesn't",
    "don't", "wasn't", "weren't", "isn't", "aren't", "won't", "like", "want", "need", "know", "look", "looking",
    "check", "checking", "think", "wonder", "still", "again", "really", "actually", "then", "there", "those",
    "something", "anything", "someone", "somebody", "anyone", "thing", "things", "way", "ways", "size", "value",
    "values", "own", "same", "other", "another", "such", "both", "either", "neither", "whether", "if", "while",
    "id", "ids", "code", "codes", "label", "labels", "category", "break", "send", "sends", "return", "returns",
    "trigger", "triggers", "triggered", "raise", "raised", "throw", "threw", "thrown", "emit", "emitted", "issued",
    # adverbs of the usual course, which add nothing to the event's lines ("closed normally"; "unexpectedly" does)
    "normally", "successfully", "properly", "cleanly", "correctly", "fine"})
"""Words that relate the question's other words without naming a field, value or event of a log: verbs of saying, going, keeping and causing, modals and negations ("how long did errors go on", "it said it can't find", "I mean the 'generating core' lines"), and words saying what kind of value is meant ("thread ids", "the KERNDTLB alert label"); a word of the question linked to nothing else and not among these is unread."""
ANY_EVENT = frozenset({"it", "anything", "something", "there", "this", "that", "the", "a", "an", "one", "ones", "they",
                       "them", "these", "those"})
"""Words that name no event of their own where a question asks when something happened ("when did it last happen")."""

TRANSFER_WORDS = frozenset({"sent", "send", "sends", "received", "receive", "receives", "transferred", "transfer",
                            "served", "serve", "uploaded", "downloaded", "read", "written", "wrote"})
"""Verbs of moving data, which a size field's name implies ("which ip sent the most bytes": the bytes field)."""

NEGATIONS = frozenset({"not", "no", "never", "cannot", "nothing", "none", "neither", "nor"})
"""Words that turn what the question names into its opposite ("sessions that were not established"); with the words
ending in n't, a negation no reader took is a word of the log, or unread."""

FILLER_NOUNS = frozenset({"request", "requests", "attempt", "attempts", "response", "responses", "command", "commands",
                          "call", "calls", "job", "jobs", "data", "file", "files", "record", "records", "entry",
                          "entries", "item", "items", "type", "types"})
"""The nouns among the filler words, which a log's event may be written with ("Received connection request")."""

THRESHOLD_WORDS = frozenset({"took", "longer", "shorter", "slower", "faster", "quicker", "bigger", "larger",
                             "smaller", "greater", "exceeding", "latency", "duration", "milliseconds"})
"""The words of a numeric threshold ("took longer than 1 second", "latency over 500 ms"), read as typos too."""

ASKING_LEADS = frozenset(("what", "whats", "what's", "is", "are", "was", "were", "the", "a", "an", "of", "show", "me",
                           "give", "tell", "get", "list", "compute", "calculate", "find", "and", "or", "for", "by",
                           "per", "in", "on", "overall", "total"))
"""Words that only ask or point ("what's the", "show me", "overall"), which never name a field beside an asking word."""

NUMBER_LEADS = frozenset({"top", "last", "first", "past", "next", "over", "under"})
"""Words a number after them belongs to (a ranking's size, a time window, a threshold), never a field's value."""

VALUE_QUALIFIERS = frozenset({"number", "numbers", "code", "codes", "id", "ids", "value", "values"})
"""Words that say a value is an identifier rather than name a thing ("error state number", "HRESULT code")."""

PHRASE_ENDS = frozenset({
    "a", "an", "the", "of", "in", "on", "at", "for", "from", "to", "by", "with", "and", "or", "than", "that", "which",
    "who", "whom", "whose", "when", "where", "there", "per", "across", "during", "over", "into", "is", "are", "was", "were", "be",
    "been", "do", "does", "did", "have", "has", "had", "got", "get", "gets", "came", "come", "comes", "show", "shows",
    "showed", "shown", "appear", "appears", "appeared", "logged", "sent", "made", "make", "makes", "send", "sends",
    "open", "opens", "hold", "holds", "held", "say", "says", "said", "ran", "run", "runs", "took", "take", "takes",
    "saw", "went", "wrote", "gave", "began"})
"""Words that end a noun phrase: verbs and the words around them (and any word ending in -ed, which irregular past
tenses such as "ran" or "took" do not; not those a log writes as its own words: "Connection lost", "caught end of
stream exception", "Write failed")."""

RATE_LEADS = frozenset({"average", "avg", "mean", "median", "max", "maximum", "min", "minimum", "peak", "highest",
                        "lowest", "largest", "number", "count", "amount", "of", "the", "many", "how", "what",
                        "what's", "whats", "is", "was", "are", "were", "on", "in", "a", "an", "percentile", "typical",
                        "most", "least", "fewest"})
"""Words before a rate's bucket that do not name the lines counted ("the average number of failed logins per
hour")."""

FIELD_NAME_STOPS = frozenset({
    "of", "in", "on", "at", "to", "for", "by", "with", "from", "and", "or", "is", "was", "are", "be", "the", "a", "an",
    "after", "before", "within", "than", "about", "over", "under", "up", "each", "every", "per", "since", "until",
    "last", "next", "line", "port", *MONTH_ABBREVIATIONS, *WEEKDAY_ABBREVIATIONS})
"""Words of a log line that never name the number after them ("in 5 ms", "Nov 20", "line 42", "port 22"): a field
found in messages is named by the word before its number only when that word is none of these. Not `FILLER`: a
log's "time", "count" or "total" before a number does name it."""

PATTERN_FIELD_STOPS = FIELD_NAME_STOPS - {"from", "to", "port", "line"}
"""Words before a variable position of a message pattern that never name it: a position is any value, not only a
number, so "from <*>", "to <*>", "port <*>" and "line <*>" name theirs."""

LOCATING_FILLER = frozenset({
    "of", "the", "a", "an", "in", "to", "for", "per", "by", "on", "at", "all", "each", "every", "value", "values",
    "number", "numbers", "amount", "log", "logs", "line", "lines", "message", "messages", "entries", "what", "s", "is",
    "was", "were", "are", "it", "its"})
"""Words of a question that a message holding the number it asks for need not hold ("the average value of the
task progress in the logs"): function words and the words for lines and values. Fewer than `FILLER`, whose asking
and counting words ("count", "time", "request") a message may well write beside its number."""

NOT_USER_NAMES = frozenset({
    "unknown", "invalid", "none", "null", "by", "from", "for", "with", "is", "has", "was", "not", "in", "on", "to",
    "the", "a", "an", "and", "or", "of", "id", "name", "authentication", "session", "agent", "process", "request",
    "logged", "list", "mode", "data"})
"""Words a log writes where a user name stands ("user unknown", "user authentication failure"), which are never
a user's name."""
