"""Words of the rules that are also the log's own words: a filler word or the kind counted written by the log with
the question's other words is unread, not dropped; a dotted name is read whole; a minimum level means nothing in a
log without levels; a number is a value of the messages, not of the head's time."""

from __future__ import annotations

from pathlib import Path

from question_frames import ask, frame

from react_engine import Engine, Settings
from react_engine.planners.rules import RulesPlanner

LOGINS = [
    "User #29#, coming from #30#, authenticated.",
    "User #29#, coming from #31#, authenticated.",
    "User #29# logged out",
    "User #29# logged out",
    "User #7#, coming from #30#, authenticated.",
    "Session: 11152_1 initialized by client SPP.",
    "Session: 11152_2 initialized by client WindowsUpdateAgent.",
    "Session: 11152_3 initialized by client WindowsUpdateAgent.",
    "chrome.exe - 13.client-channel.google.com:443 error : Could not connect through proxy (error 10061)",
    "chrome.exe - 13.client-channel.google.com:443 error : Could not connect through proxy (error 10061)",
    "chrome.exe - 13.client-channel.google.com:443 close, 474 bytes sent, 4464 bytes received",
    "chrome.exe - www.example.com:443 close, 10 bytes sent, 20 bytes received",
]


def test_a_filler_word_the_log_writes_on_some_of_the_lines_is_unread() -> None:
    """"coming" is a filler word of the rules and a word of this log: read as filler, the count would be of every
    line with the value 29 (4, where the lines "coming" from 29 are 2), so it is named unread."""
    result = ask("How many coming in user 29?", frame(LOGINS))
    assert result.partial and not result.verified, result.answer
    assert result.answer.startswith('I did not read "coming"'), result.answer


def test_the_kind_counted_written_beside_a_word_searched_for_is_unread() -> None:
    """"client SPP" is written by the log: "client" there is the log's word, not the kind of value (IP addresses)
    whose zero would be verified."""
    result = ask("How many client spp?", frame(LOGINS))
    assert not result.verified and result.answer.startswith('I did not read "client"'), result.answer


def test_a_filler_word_naming_the_only_event_of_the_question_is_unread() -> None:
    """"job" is a filler word of the rules and the word of some of this log's lines: with no other word to search,
    reading it as filler would time every line, so it is named unread."""
    lines = ["Job job_1 Transitioned from NEW to INITED", "Connecting to ResourceManager",
             "Job job_1 Transitioned from INITED to RUNNING", "Assigned container_3 to attempt_4"]
    result = ask("When did job last happen?", frame(lines))
    assert result.partial and not result.verified, result.answer
    assert result.answer.startswith('I did not read "job"'), result.answer


def test_a_filler_word_every_line_writes_stays_filler() -> None:
    """A filler word written on every sampled line tells no lines apart: the question about all lines is read."""
    lines = ["Job job_1 Transitioned from NEW to INITED", "Job job_1 Transitioned from INITED to RUNNING"]
    result = ask("When did job last happen?", frame(lines))
    assert result.verified and not result.partial, result.answer


def test_a_kind_of_value_the_query_does_not_use_is_unread_where_the_log_writes_it() -> None:
    """"status" names a kind (HTTP status codes) but the query ranks process ids; the log writes "status" on some
    lines, so ranking every line's pid as verified would drop what the question names."""
    lines = ['"GET /v2/servers HTTP/1.1" status: 200 len: 1893', "Compute_service record updated for cp-1",
             '"GET /v2/flavors HTTP/1.1" status: 200 len: 411', "Auditing locally available compute resources"]
    result = ask("How many status per pid?", frame(lines, pid=["25746", "2931", "25746", "2931"]))
    assert result.partial and not result.verified and '"status"' in result.answer, result.answer


def test_a_noun_after_the_logs_name_or_before_a_value_stays_read() -> None:
    """"the app job" is the run the log (app.log) is of, and "instance 3edec1e4-..." the kind of the value asked
    about, though the log writes "job" and "instance" on some lines."""
    uuid = "3edec1e4-9678-4a3a-a21b-a145a4ee5e61"
    lines = ["Job job_1 submitted", f"[instance: {uuid}] Instance spawned", "Auditing resources",
             f"[instance: {uuid}] Terminating instance", "Job job_1 finished"]
    span = ask("how long did the app job run?", frame(lines))
    assert span.verified and not span.partial and span.value == {"seconds": 240}, span.answer
    story = ask(f"what happened to instance {uuid}?", frame(lines))
    assert story.verified and not story.partial, story.answer


def test_a_word_of_the_rules_the_log_never_writes_with_the_searches_stays_read() -> None:
    result = ask("How many lines with WindowsUpdateAgent?", frame(LOGINS))
    truth = sum("WindowsUpdateAgent" in m for m in LOGINS)
    assert result.value == truth and result.verified and not result.partial, result.answer


def test_the_words_of_a_count_stay_the_counts_where_the_log_writes_them() -> None:
    """"times" in "how many times" asks for a count, though the log writes "message repeated 2 times"."""
    lines = ["Failed password for root from 1.2.3.4", "message repeated 2 times: [ Failed password for root from 1.2.3.4]",
             "Failed password for root from 1.2.3.5", "Accepted password for root from 1.2.3.6"]
    result = ask("How many times did root fail password?", frame(lines))
    assert result.value == 3 and result.verified and not result.partial, result.answer


def test_a_dotted_name_the_log_writes_is_read_whole() -> None:
    """"13.client-channel.google.com": not the value 13, the kind "client" (IP addresses, of which these lines hold
    none: a verified empty list) and "channel.google.com"."""
    result = ask("What is the error of 13.client-channel.google.com that could not connect?", frame(LOGINS))
    written = {m.rsplit("error ", 1)[1].rstrip(")") for m in LOGINS if "13.client-channel" in m and "(error" in m}
    assert "IP addresses" not in result.answer and "mentioning 13.client-channel.google.com" in result.answer, \
        result.answer
    assert not result.verified or (result.value is not None and str(result.value) in written), result.answer


def test_a_minimum_level_in_a_log_without_levels_leaves_min_to_the_statistic() -> None:
    """In a log that records no severities "min error" is no minimum level: the minimum of the error field."""
    result = ask("What is the min error for 13.client-channel.google.com?", frame(LOGINS))
    assert result.value == 10061 and result.verified, result.answer


def test_or_worse_in_a_log_without_levels_is_unread() -> None:
    result = ask("How many errors or worse?", frame(LOGINS))
    assert result.partial and not result.verified and '"worse"' in result.answer, result.answer


def test_a_number_is_a_value_of_the_messages_not_of_the_heads_time(tmp_path: Path) -> None:
    """"29" is written in the messages of two lines and in the time of every line (`12:10:29`)."""
    lines = [f"Nov  9 12:1{i}:29 bn{i} sshd[4{i}18]: {m}" for i, m in enumerate([
        "User #29# logged out", "Accepted password for root", "User #29# logged in", "Accepted password for guest"])]
    log = tmp_path / "auth.log"
    log.write_text("\n".join(lines) + "\n")
    result = Engine(RulesPlanner(), Settings(max_iterations=12)).ask("How many lines with 29?", [log])
    assert result.value == 2 and result.verified, result.answer


def test_a_filler_noun_the_log_writes_beside_a_word_searched_for_is_unread() -> None:
    """"command" is a filler word of the rules, and the log writes "boot (command N)"; the search for "boot" also
    keeps the lines of the component "boot_cmd", which the sampled messages do not show, so dropping "command"
    would count those lines too."""
    messages = ["boot (command 3023)", "boot (command 3024)", "Command has completed successfully",
                "Command has completed successfully", "Targeting domains:node-D0"]
    f = frame(messages, component=["boot_cmd"] * 4 + ["other"])
    result = ask("How many boot command lines?", f)
    assert not result.verified and result.answer.startswith('I did not read "command"'), result.answer


def test_a_word_asking_for_patterns_the_log_writes_beside_a_search_is_unread() -> None:
    """"pattern" asks for message patterns, but this log writes "upload with pattern": the kinds of message are
    not the count "how many" asks."""
    messages = ["SQM: Queued 0 file(s) for upload with pattern: C:\\sqm\\*.sqm, flags: 0x6",
                "SQM: Queued 1 file(s) for upload with pattern: C:\\sqm\\*.sqm, flags: 0x6",
                "SQM: Queued 2 file(s) for upload with pattern: C:\\sqm\\*.sqm, flags: 0x2", "Session initialized"]
    result = ask("How many upload with pattern from 0x6?", frame(messages))
    assert not result.verified and result.answer.startswith('I did not read "pattern"'), result.answer


SESSIONS = ["Established session 0x1 with negotiated timeout 10000", "Established session 0x2 with negotiated timeout 10000",
            "Closed socket connection for client /10.0.0.1:5 (no session established for client)",
            "Client attempting to establish new session at /10.0.0.2:6", "Expiring session 0x1"]


def test_lines_that_write_the_event_after_a_negation_are_not_counted() -> None:
    """"no session established for client" tells of a session not established."""
    result = ask("how many sessions were established?", frame(SESSIONS))
    assert result.value == sum(m.startswith("Established session") for m in SESSIONS) and result.verified, \
        result.answer


def test_a_negation_no_reader_took_is_unread_where_the_lines_write_none() -> None:
    """"not established": no search keeps the sessions not established, so the count of the established ones
    (and of the line writing "no session established") is no answer."""
    result = ask("how many sessions were not established?", frame(SESSIONS))
    assert "negation" not in result.answer and not result.verified, result.answer
    assert result.answer.startswith('I did not read "not"'), result.answer


def test_a_negation_the_lines_write_otherwise_is_read() -> None:
    """"could not open" is what "Cannot open channel" writes."""
    lines = ["Cannot open channel to 2 at election address /10.0.0.2:3888", "Opening channel to 3",
             "Cannot open channel to 3 at election address /10.0.0.3:3888"]
    result = ask("how many times could it not open 'channel to'?", frame(lines))
    assert result.value == sum(m.startswith("Cannot open channel to") for m in lines) and result.verified, \
        result.answer


def test_an_event_every_line_writes_negated_is_counted_as_written() -> None:
    """Every line that writes "responding" writes "not responding": that is the log's event, not its opposite."""
    lines = ["node-1 not responding", "node-2 not responding", "node-1 running"]
    result = ask("How many responding?", frame(lines))
    assert result.value == sum("responding" in m for m in lines) and result.verified, result.answer


def test_what_how_many_counts_written_after_a_number_is_no_count_of_lines() -> None:
    """"generated 64 core files": two such lines are 128 core files, not 2."""
    lines = ["ciod: generated 64 core files for program /bgl/a", "ciod: generated 64 core files for program /bgl/b",
             "generating core.1", "generating core.2", "ciod: LOGIN chdir(/home) failed"]
    result = ask("how many core files were generated?", frame(lines))
    assert not result.verified and result.answer.startswith('I did not read "files"'), result.answer


def test_the_kind_counted_the_log_writes_beside_a_search_without_the_questions_joining_words_is_unread() -> None:
    """"how many users were unknown": the log writes "user unknown", a message about no user it names, so a
    verified count of no distinct users would be wrong."""
    lines = ["pam_unix(sshd:auth): check pass; user unknown", "pam_unix(sshd:auth): check pass; user unknown",
             "Failed password for invalid user admin from 1.2.3.4 port 22 ssh2"]
    result = ask("how many users were unknown?", frame(lines))
    assert not result.verified and result.answer.startswith('I did not read "users"'), result.answer


def test_a_word_the_log_writes_on_some_of_the_lines_kept_is_unread_not_ignored() -> None:
    """"invalid" is written inside invalidSet, on some of the lines saying "added": ignored, the count was of every
    block added anywhere, verified."""
    lines = ["BLOCK* NameSystem.delete: blk_1 is added to invalidSet of 10.0.0.1:50010",
             "BLOCK* NameSystem.addStoredBlock: blockMap updated: 10.0.0.1:50010 is added to blk_2 size 10",
             "BLOCK* NameSystem.addStoredBlock: blockMap updated: 10.0.0.2:50010 is added to blk_3 size 10"]
    result = ask("how many blocks were added to the invalid set?", frame(lines))
    assert not result.verified and result.answer.startswith('I did not read "invalid"'), result.answer


def test_the_kind_counted_after_a_search_that_the_log_writes_before_its_values_stays_counted() -> None:
    """"Invalid user admin": the log writes the users after "Invalid user", so "how many invalid users" counts them."""
    lines = ["Invalid user admin from 1.2.3.4", "Invalid user test from 1.2.3.5", "Invalid user admin from 1.2.3.6",
             "Accepted password for bob from 1.2.3.7 port 22 ssh2"]
    result = ask("how many invalid users?", frame(lines))
    assert result.value == 2 and result.verified, result.answer


def test_a_negation_searched_as_a_word_must_stand_before_what_it_negates() -> None:
    """"not closed": these lines write "not" of "Could not connect" and "closed" of "Proxy closed the connection",
    which tell of a connection closed, not of one that was not."""
    lines = ["a.exe - h:443 error : Could not connect through proxy p:5070 - Proxy closed the connection unexpectedly.",
             "a.exe - h:443 close, 10 bytes sent, 20 bytes received, lifetime 00:01",
             "a.exe - h:443 open through proxy p:5070 HTTPS"]
    result = ask("how many connections were not closed?", frame(lines))
    assert not result.verified and result.answer.startswith('I did not read "not"'), result.answer


def test_a_negation_the_lines_write_before_what_it_negates_is_searched() -> None:
    lines = ["Partition rdd_1 not found, computing it", "Partition rdd_2 not found, computing it",
             "Found block rdd_3 locally", "Partition rdd_1 stored"]
    result = ask("how many partitions were not found?", frame(lines))
    assert result.value == 2 and result.verified, result.answer


def test_a_count_of_lines_is_no_count_of_things_the_lines_name_again_by_their_value() -> None:
    """Two lines tell of each variable read ("Started reading broadcast variable 1", "Reading broadcast variable
    1 took 5 ms"): their count is not how many variables were read."""
    lines = [m for v in (1, 2, 3) for m in (f"Started reading broadcast variable {v}",
                                          f"Reading broadcast variable {v} took {v} ms")] + ["Got assigned task 7"]
    result = ask("how many broadcast variables were read?", frame(lines))
    assert not result.verified and result.answer.startswith('I did not read "variables"'), result.answer


def test_a_value_one_event_writes_again_names_other_things() -> None:
    """"Finished task 0.0 in stage 1.0" and "... in stage 2.0" are two tasks: their lines count them."""
    lines = [f"Finished task {t}.0 in stage {s}.0 (TID {4 * s + t})" for s in (1, 2) for t in (0, 1)] + ["Got task 7"]
    result = ask("how many tasks were finished?", frame(lines))
    assert result.value == 4 and result.verified, result.answer


def test_a_word_after_last_in_a_question_of_time_names_the_lines_timed() -> None:
    """"when was the last remove": "remove" is written before values ("remove libfoo:amd64 1.2"), but a time is
    asked of the remove lines, not of every line (nor is the word left unread)."""
    lines = ["2024-03-15 09:12:08 remove libfoo:amd64 1.2 <none>", "2024-03-16 10:00:00 upgrade libbar:amd64 2.0 2.1",
             "2024-03-17 10:00:00 status installed libbar:amd64 2.1"]
    result = ask("when was the last remove?", frame(lines))
    assert result.verified and "(app.log:1)" in result.answer and "remove" in result.answer, result.answer


def test_a_word_the_log_writes_on_some_lines_is_unread_also_when_nothing_else_is_searched() -> None:
    """"when desktop": the distinct values of every line were counted, not of the lines that write "desktop"."""
    lines = ["authw 0x1 com.apple.desktopservices", "authw 0x2 com.apple.desktopservices", "authw 0x3 screensaver",
             "authw 0x4 idle"]
    result = ask("How many distinct authw when desktop?", frame(lines))
    assert result.value == 2 or not result.verified, result.answer


def test_the_kind_counted_beside_a_search_stays_read_where_the_lines_write_its_values() -> None:
    """"Instance spawned successfully" is written beside "[instance: <id>]": the instances are there to count."""
    ids = ["3edec1e4-9678-4a3a-a21b-a145a4ee5e61", "96abccce-8d1f-4e07-b6d1-4b2ab87e23b4"]
    lines = [f"[instance: {i}] Instance spawned successfully." for i in ids] + [f"[instance: {ids[0]}] VM Started"]
    result = ask("how many instances were spawned?", frame(lines))
    assert result.value == len(ids) and result.verified, result.answer


def test_a_negation_searched_as_a_word_may_be_written_in_another_form_before_what_it_negates() -> None:
    """"no identification string": the lines write "Did not receive identification string"."""
    lines = ["Did not receive identification string from 1.2.3.4", "Did not receive identification string from 1.2.3.5",
             "Received disconnect from 1.2.3.6: 11: No more user authentication methods available."]
    result = ask("no identification string lines?", frame(lines))
    assert result.value == 2 and result.verified, result.answer


def test_a_word_the_log_writes_whole_wins_over_the_lexicons_way_of_writing_its_event() -> None:
    """The lexicon writes a delete as "Deleting"/"Deleted"; where the log writes "DELETE" on other lines, the
    question's own word is what it names."""
    lines = ['10.11.10.1 "DELETE /v2/servers/b9 HTTP/1.1" status: 204', "Deleting instance files /var/lib/b9",
             '10.11.10.1 "GET /v2/servers/detail HTTP/1.1" status: 200', 'x "DELETE /v2/servers/c1 HTTP/1.1" 204']
    result = ask("How many delete lines?", frame(lines))
    assert result.verified and result.value == sum("DELETE" in m for m in lines), result.answer


def test_the_lexicons_way_stays_where_the_log_writes_no_other_line_with_the_word() -> None:
    lines = ["Deleting block blk_1 file /data/blk_1", "Deleting block blk_2 file /data/blk_2", "Receiving block blk_3"]
    result = ask("How many block deletions?", frame(lines))
    assert result.verified and result.value == 2, result.answer


def test_words_searched_side_by_side_are_one_phrase_however_the_log_joins_them() -> None:
    """"not responding" is the lines writing the two words together, with a space or a hyphen, not every line
    writing both words somewhere."""
    lines = ["tserver status 1 not-responding", "node-2 not responding", "responding again, not idle", "node-3 ok"]
    result = ask("How many not responding lines?", frame(lines))
    assert result.verified and result.value == 2, result.answer
