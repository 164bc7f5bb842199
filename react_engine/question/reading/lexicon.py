"""The words the rules planner understands, and how logs write what they mean."""

from __future__ import annotations

import functools
import re

NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                "sixty": 60}
UNITS = {"s": "s", "sec": "s", "second": "s", "m": "m", "min": "m", "minute": "m", "h": "h", "hr": "h",
         "hour": "h", "d": "d", "day": "d", "w": "w", "week": "w"}
UNIT = r"(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|[smhdw])"
AMOUNT = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"

# Key phrases as users say them -> how logs write them: (question pattern, search value, regex?, case-sensitive?)
PHRASES: tuple[tuple[str, str, bool, bool], ...] = (
    (r"\bt([1-6])\s*(?:time[- ]?outs?|timers?|errors?|events?)?\b", r"T{0} time[- ]?out", True, False),
    (r"\b(?:rcs\s+|cm\s+)?partial[- ]service\b", "partial service", False, False),
    (r"\bcm[- ]?status(?:es)?\b", "CM-STATUS", False, False),
    (r"\bevent type code:?\s*(\d+)\b", "Event Type Code: {0};", False, False),
    (r"\bunregistered\b|\bunregsidtimeouts?\b", "unregistered Cable Modem", False, False),
    (r"\b(?:bpi\s+)?unauthori[sz]ed\b|\bunauthsidtimeouts?\b", "BPI unauthorized", False, False),
    (r"\b(?:bad\s+)?(?:timing|tx)\s+offsets?\b|\bbadtxoffsets?\b", "Bad timing offset", False, False),
    (r"\bauth(?:orization)?\s*fail(?:ures?|ed|s)?\b|\bauthfails?\b", "Authorization failed", False, False),
    (r"\branging (?:request )?retries(?: exhausted)?\b", "Ranging Request Retries exhausted", False, False),
    (r"\b(?:loss of sync|sync (?:loss|failures?|losses))\b", "Loss of Sync", False, False),
    (r"\binvalid (?:modem )?(?:capabilities|config(?:uration)?)(?: settings?)?\b", "Invalid Modem Capabilities",
     False, False),
    (r"\b(?:power level changes?|input power(?: level)? changes?|usiplchg)\b", "input power level changed", False,
     False),
    (r"\b(?:invalid docsis messages?|badmncsmsg)\b", "Invalid DOCSIS Message", False, False),
    (r"\b(?:failed authentications?|authentication failures?)\b", "authentication failure", False, False),
    (r"(?<=\bfor )invalid\s+users?\b", "invalid user", False, False),
    (r"\binvalid(?=\s+users?\b)", "Invalid user", False, True),
    (r"\b(?:out of memory|oom)(?: kills?| killed| errors?)?\b", "Out of memory", False, False),
    (r"\b(?:ufw|firewall)\s+block(?:s|ed)?\b|\bblock(?:s|ed)?\s+(?:by\s+(?:the\s+)?(?:ufw|firewall)|packets?)\b"
     r"|\bufw\b", "UFW BLOCK", False, False),
    (r"\b(?:exceptions?|tracebacks?|stack ?traces?)\b", r"Traceback|Exception", True, False),
    (r"\bslow requests?\b", "slow request", False, False),
)

# Common log events as users say them -> how logs write them, in order of preference: the first way of writing
# whose words occur in the loaded rows is searched (case-insensitive regex); when none does, the first.
EVENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\bfail(?:ed|ing)? (?:ssh )?(?:passwords?|logins?|log-ins?|authentications?)(?: attempts?)?\b"
     r"|\b(?:ssh )?(?:login|password) failures?\b|\bfail(?:ed|s)? to log ?in\b",
     ("Failed password", "authentication failure", "FAILED LOGIN", "Login failed")),
    (r"\b(?:accepted|successful|succeeded) (?:ssh )?(?:passwords?|logins?|log-ins?|authentications?)\b",
     (r"Accepted (?:password|publickey)", "session opened", "Login successful")),
    (r"\bdis-?connect(?:s|ed|ions?)?\b", ("disconnect",)),
    (r"\btime[- ]?outs?\b|\btimed out\b", (r"time[- ]?out|timed out",)),
    (r"\bdelet(?:e|ed|es|ing|ions?)\b|\bremov(?:ed|als?|ing)\b", (r"\bDelet(?:ing|ed)\b", r"\bdelet", r"\bremov")),
    (r"\bconnections?\b|\bconnect(?:ed|s)?\b", (r"\bconnect",)),
    (r"\breboot(?:s|ed|ing)?\b|\brestart(?:s|ed|ing)?\b", (r"reboot|restart",)),
    (r"\b(?:log[- ]?ins?|login attempts?|logins?)\b", (r"Failed password|Accepted (?:password|publickey)|"
                                                              r"Invalid user",)),
)
# "successful root logins" -> "successful logins for root" (the name then becomes a search of its own)
NAMED_LOGINS = (r"\b(successful|accepted|failed|failing)\s+(?!ssh\b|password|login|log-in|auth)([a-z_][\w-]*)\s+"
                r"(logins?|log-ins?|password attempts?|passwords?|authentications?)\b")

METHODS = r"GET|POST|PUT|DELETE|HEAD|PATCH|OPTIONS"  # HTTP methods, as request lines write them

SEVERITY_WORDS = (
    (r"\bemergenc(?:y|ies)\b|\bemerg\b|\bpanics?\b", "emergency"),
    (r"\bcritical(?:s)?\b|\bcrit\b", "critical"),
    (r"\bfatal(?:s)?\b", "FATAL"),
    (r"\bsevere\b", "SEVERE"),
    (r"\berrors?\b|\berr\b", "error"),
    (r"\bwarnings?\b|\bwarns?\b", "warning"),
    (r"\bnotices?\b", "notice"),
    (r"\binfo(?:rmational)?\b", "info"),
    (r"\bdebug\b", "debug"),
    (r"\bverbose\b", "verbose"),  # as the log writes it ("V" on Android), else debug
)
STEMS = {"emergency": "emerg", "critical": "crit", "warning": "warn"}
AT_LEAST = (r"\b(?:at least|min(?:imum)?(?: level)?)\s+(?:{w})|(?:{w})\s+(?:or|and)\s+(?:worse|above|higher|"
            r"more severe|up)\b")

# entity words -> target kind
TARGETS = (
    ("cmts_mac", r"\bcmts[- ]?macs?\b"),
    ("modem", r"\b(?:cable\s+)?modems?\b|\bcms\b|\bcm(?:[- ]?macs?)?\b|\bmac(?:\s+address(?:es)?|s)?\b|\bdevices?\b"),
    ("remote_host", r"\bremote\s+(?:hosts?|machines?|addresses|address|ips?|clients?)\b|\brhosts?\b"),
    ("ip", r"\b(?:(?:client|source|src|destination|dest|dst|remote|attacker|attacking)\s+)?(?:ip(?:v[46])?"
           r"(?:\s+address(?:es)?|s)?|addresses)\b|\b(?:client|source|src|destination|dest|dst)\s+address\b"
           r"|\bclients?\b|\battackers?\b|\bsources?\b(?!\s+ports?\b)|\bdestinations\b"),
    ("status", r"\b(?:http |response )?status(?:es)?(?: codes?)?\b|\bresponse codes?\b"),
    ("path", r"\bpaths?\b|\burls?\b|\bendpoints?\b|\bpages?\b|\buris?\b"),
    ("method", r"\b(?:http )?methods?\b|\bverbs?\b"),
    ("user_agent", r"\buser[- ]?agents?\b|\bbrowsers?\b"),
    ("user", r"\busers?(?:[- ]?names?)?\b|\baccounts?(?:[- ]?names?)?\b|\blogins? names?\b"),
    ("interface", r"\b(?:cable )?interfaces?\b|\bupstreams?\b"),
    ("event_type_code", r"\b(?:cm-status\s+)?event type codes?\b|\bcm-status codes?\b"),
    ("event_id", r"\bevent[- ]?(?:ids?|codes?|types?)\b"),
    ("uuid", r"\brequest[- _]?ids?\b|\buuids?\b"),
    ("pid", r"\bpids?\b|\bprocess[- ]?(?:ids?|numbers?)\b"),
    ("thread", r"\bthreads?(?:[- ]?names?)?\b"),
    ("block", r"\b(?:data\s*)?blocks?(?:[- ]?ids?)?\b|\bblks?\b"),
    ("instance", r"\b(?:vm |server )?instances?(?:[- ]?ids?)?\b"),
    ("port", r"\b(?:(?:source|src|destination|dest|dst|remote|local)\s+)?ports?\b"),
    ("host", r"\bhosts?(?:names?)?\b|\bservers?\b|\bcmts(?:s|es)?\b|\bmachines?\b|\bnodes?\b"),
    ("component", r"\bcomponents?\b|\bprograms?\b|\btags?\b|\bprocess(?:es)?\b|\bservices?\b|\bloggers?\b|\bdaemons?\b"
                  r"|\bapplications?\b|\bapps?\b|\bfacilit(?:y|ies)\b|\bmodules?\b|\bclass(?:es)?\b"),
    ("severity", r"\bseverit(?:y|ies)\b|\b(?:log )?levels?\b|\bpriorit(?:y|ies)\b"),
    ("message", r"\bmessages?\b"),
)
# entity types the tools extract (the other targets are columns), and the targets "how many X" counts distinctly
ENTITY_TYPES = frozenset({"cm_mac", "mac", "ip", "user", "interface", "cmts_mac", "http_status", "uuid"})
# what the tools have no type for, as an extraction pattern (its group is the value)
CUSTOM_ENTITIES = {"event_type_code": r"Event Type Code: (\d+)", "block": r"\b(blk_-?\d+)",
                   "instance": r"\[instance: ([0-9a-fA-F-]{36})\]", "port": r"\bport[ =:]+(\d+)",
                   "remote_host": r"\brhost=([^\s;,]+)"}
REQUEST_METHOD = rf'"({METHODS}) '  # a request line's method, in logs that hold no method column
COUNTABLE = frozenset({"modem", "cmts_mac", "ip", "user", "interface", "uuid", "block", "instance", "port",
                       "remote_host", "host", "component"})
LABELS = {"modem": "modems", "cmts_mac": "CMTS MACs", "ip": "IP addresses", "user": "users",
          "status": "status codes", "path": "paths", "method": "methods", "user_agent": "user agents",
          "interface": "interfaces", "event_id": "event IDs", "host": "hosts", "component": "components",
          "severity": "severities", "message": "messages", "uuid": "request IDs",
          "event_type_code": "CM-STATUS event type codes", "remote_host": "remote hosts", "pid": "process IDs",
          "thread": "threads", "block": "blocks", "instance": "instances", "port": "ports"}

# words that carry no search meaning: a question whose other words are all explained by a rule is understood
FILLER = set(["stuff", "things", "thing", "a", "an", "the", "of", "in", "on", "at", "for", "from", "to", "by", "with", "within", "during", "over", "across", "into", "and", "or", "than", "as", "how", "many", "much", "what", "which", "who", "whose", "when", "where", "is", "are", "was", "were", "be", "been", "being", "do", "does", "did", "have", "has", "had", "having", "there", "any", "all", "each", "every", "some", "me", "my", "our", "we", "us", "i", "you", "your", "it", "its", "this", "that", "these", "those", "them", "they", "their", "show", "list", "give", "tell", "display", "print", "find", "count", "counted", "number", "numbers", "total", "totals", "time", "times", "amount", "log", "logs", "logged", "line", "lines", "entry", "entries", "event", "events", "record", "records", "row", "rows", "occurrence", "occurrences", "item", "items", "file", "files", "data", "text", "seen", "see", "saw", "occur", "occurred", "occurring", "happen", "happened", "happening", "appear", "appeared", "appearing", "recorded", "report", "reported", "reports", "get", "got", "let", "please", "can", "could", "would", "should", "will", "may", "might", "just", "only", "also", "affected", "affect", "affecting", "experienced", "experience", "experiencing", "hit", "hitting", "had", "see", "shown", "produce", "produced", "unique", "distinct", "different", "separate", "individual", "top", "most", "common", "commonly", "frequent", "frequently", "often", "active", "noisy", "noisiest", "busiest", "biggest", "highest", "largest", "worst", "ones", "one", "kind", "kinds", "type", "types", "per", "each", "every", "ago", "past", "last", "previous", "recent", "recently", "latest", "now", "so", "far", "up", "until", "till", "since", "between", "after", "before", "about", "around", "approximately", "overall", "altogether", "whole", "entire", "here", "exactly", "many", "mention", "mentions", "mentioning", "mentioned", "contain", "contains", "containing", "contained", "matching", "match", "matches", "say", "says", "saying", "attempt", "attempts", "try", "tries", "tried", "trying", "job", "jobs", "run", "runs", "ran", "request", "requests", "response", "responses", "hit", "hits", "call", "calls", "command", "commands", "breakdown", "broken", "down", "split", "distribution", "returned", "returning", "caused", "written", "write", "wrote", "observed", "printed",
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
FREE_TEXT = re.compile(r"\b(?:mention(?:s|ing|ed)?|contain(?:s|ing|ed)?|with the (?:word|text|string)|"
                       r"matching|match(?:es)?|say(?:s|ing)?|saying)\s+([^\s?,;]+)", re.I)

# component names too generic to be read as "from that component" when a question uses the word
GENERIC_COMPONENTS = {"cmts", "cm", "app", "api", "main", "root", "system", "server", "client", "http", "db",
                      "web", "log", "logs", "cablemodem"}

# HTTP reason phrases -> their status code (on logs with a status column)
HTTP_REASONS = {r"unauthori[sz]ed": 401, r"forbidden": 403, r"not found": 404, r"bad gateway": 502,
                r"service unavailable": 503, r"gateway time-?out": 504, r"too many requests": 429}

# HTTP status classes in words (a "5xx" in an answer would read as the number 5)
STATUS_CLASSES = {"1": "informational", "2": "success", "3": "redirect", "4": "client-error", "5": "server-error"}

# "host"/"cmts" before a host name, and the times "between X and Y" / "since X" accept
HOST_WORD = r"(?:\b(?:the\s+)?(?:host|cmts|server|node|machine)\s+)?"

TIME = r"(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?Z?|\d{1,2}(?::\d{2}){0,2}\s*(?:am|pm)?|noon|midnight)"

# question words the rules read outside the patterns above (shapes, time words)
# words that ask for a measure, which a misspelt word may be read as ("avrage" -> "average"); no search
MEASURE_WORDS = frozenset({"average", "median", "maximum", "minimum", "percentile", "deviation", "variance", "longest",
                           "shortest", "slowest", "fastest", "smallest", "lowest", "ratio", "fraction", "proportion",
                           "percentage"})
_ASKING = ("which what who why top unique distinct histogram timeline trend breakdown hourly daily per between since "
           "before after until around about first last final hour minute second day week month year today yesterday "
           "january february march april june july august september october november december sept least fewest "
           "error warning event password connection block user address status restart reboot critical fatal delete "
           "remove connect login failure failed success successful session request response timeout sorted ordered "
           "ranked ascending descending " + " ".join(
               sorted(MEASURE_WORDS)))


# words that relate the question's other words without naming a field, value or event of a log: verbs of saying,
# going, keeping and causing, modals and negations ("how long did errors go on", "it said it can't find", "I mean the
# 'generating core' lines"), and words saying what kind of value is meant ("thread ids", "the KERNDTLB alert
# label"); a word of the question linked to nothing else and not among these is unread
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
# verbs of moving data, which a size field's name implies ("which ip sent the most bytes": the bytes field)
TRANSFER_WORDS = frozenset({"sent", "send", "sends", "received", "receive", "receives", "transferred", "transfer",
                            "served", "serve", "uploaded", "downloaded", "read", "written", "wrote"})
SIZE_NOUNS = r"\b(?:bytes?|size|data|kb|mb|gb|kilobytes|megabytes|gigabytes)\b"
# day names: a date's day of the week, which the time window holds
WEEKDAYS = frozenset({"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon", "tue",
                      "wed", "thu", "fri", "sat", "sun"})


# the nouns among the filler words, which a log's event may be written with ("Received connection request")
FILLER_NOUNS = frozenset({"request", "requests", "attempt", "attempts", "response", "responses", "command", "commands",
                          "call", "calls", "job", "jobs", "data", "file", "files", "record", "records", "entry",
                          "entries", "item", "items", "type", "types"})
# words a "what is the X of" names no field with: filler, measures and the rules' asking words
NOT_FIELDS = frozenset((FILLER - FILLER_NOUNS) | MEASURE_WORDS | set(_ASKING.split()) | {
    "sum", "mean", "min", "max", "share", "rate", "percent", "span", "difference"})


# the words of a numeric threshold ("took longer than 1 second", "latency over 500 ms"), read as typos too
THRESHOLD_WORDS = frozenset({"took", "longer", "shorter", "slower", "faster", "quicker", "bigger", "larger",
                             "smaller", "greater", "exceeding", "latency", "duration", "milliseconds"})


@functools.cache
def lexicon_words() -> tuple[frozenset[str], frozenset[str]]:
    """`(known, whole)`: every word or word stem the rules understand (filler, entity words, severities, phrases,
    events, numbers, time words), which is never read as a typo, and the whole words among them, which a typo
    may be read as (`severity` from `severit(?:y|ies)`, not the stem `severit`)."""
    patterns = [p for p, *_ in PHRASES] + [p for p, _ in EVENTS] + [p for _, p in TARGETS] + \
        [p for p, _ in SEVERITY_WORDS] + [UNIT, FREE_TEXT.pattern, AT_LEAST, NAMED_LOGINS]
    whole = set(FILLER) | set(NUMBER_WORDS) | set(UNITS) | set(_ASKING.split()) | THRESHOLD_WORDS
    stems = set()
    for pattern in patterns:
        text = re.sub(r"\\[a-zA-Z]", " ", pattern)
        for stem, endings in re.findall(r"([a-z]{2,})\(\?:([a-z|]+)\)", text):
            whole.update(stem + e for e in endings.split("|"))
            stems.add(stem)
        whole.update(w for w in re.findall(r"[a-z]{3,}(?![a-z(\[])", text) if w not in stems)
        stems.update(re.findall(r"[a-z]{2,}(?=[(\[])", text))
    return frozenset(whole | stems), frozenset(w for w in whole if len(w) > 2)
