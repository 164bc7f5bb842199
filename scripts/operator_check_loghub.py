"""The check set's questions over the 16 loghub samples: written apart from the operator suite's (other events,
entities and wordings), with expected values from the structured CSVs and the raw lines, never from react-engine.
"""

from __future__ import annotations

from collections.abc import Callable

from operator_data import LogData, Questions, agree, count, top, unique
from operator_loghub import IP, year_of
from operator_readings import both, loghub_readings


def android(log: LogData, q: Questions) -> None:
    tag, y = log.col("Component"), year_of(log)
    q.count("hbm-in", "terse", "HBM brightnessIn lines?", count(log.grep("HBM brightnessIn")))
    q.count("suspend-blocker", "terse", "suspend blocker acquired count", count(log.grep("Acquiring suspend blocker")))
    q.count("status-bar", "wordy", "The status bar seems very chatty on this phone. Could you count how many lines "
            "the PhoneStatusBar tag wrote?", count(tag == "PhoneStatusBar"))
    q.count("debug", "typo", "how many debgu lines?", count(log.level("D")))
    q.count("surfaces", "typo", "how many surfaces were destoryed?",
            agree(count(log.grep("Destroying surface")), count(log.grep("destroy"))))
    q.count("warn-last-minute", "dates-in-words", "warnings in the final minute of the log?",
            count(log.level("W") & log.last("1min")))
    q.count("debug-mar17", "dates-in-words", "debug lines on the 17th of March?", count(log.level("D") & log.day(f"{y}-03-17")))
    q.ranked("top-warn-pid", "ranking", "which pid wrote the most warnings?", top(log.col("Pid")[log.level("W")]))
    q.ranked("top-3-tags", "ranking", "top 3 tags by number of lines", top(tag, 3))
    q.count("pid-2626", "came-from", "lines from pid 2626?", count(log.col("Pid") == "2626"))
    q.count("display-power", "came-from", "how many entries were written by DisplayPowerController?",
            count(tag == "DisplayPowerController"))
    q.count("fatal-exception", "honest-zero", "any FATAL EXCEPTION lines?", count(log.grep("FATAL EXCEPTION")))
    q.count("unique-tids", "plain", "How many unique thread ids are there?", unique(log.col("Tid")))
    q.count("not-verbose", "plain", "How many lines are there other than verbose ones?", count(~log.level("V")))


def apache(log: LogData, q: Questions) -> None:
    errors = log.level("error")
    q.count("workerenv-ok", "terse", "workerEnv.init() ok count?", count(log.grep("workerEnv.init() ok")))
    q.count("child-init", "terse", "mod_jk child init lines?", count(log.grep("mod_jk child init")))
    q.count("workerenv-dec5", "wordy", "I'm checking this Apache error log after a restart storm. How many times "
            "was workerEnv initialised OK on Monday December 5th?",
            count(log.grep("workerEnv.init() ok") & log.day("2005-12-05")))
    q.count("slots", "typo", "how many scorebaord slot lines?", count(log.grep("scoreboard slot")))
    q.count("forbidden", "typo", "how many directroy index forbidden errors?",
            agree(count(log.grep("Directory index forbidden")), count(log.grep("Directory index forbidden") & errors)))
    q.count("errors-18-19", "dates-in-words", "how many errors between 6 and 7 pm on Dec 5th?",
            count(errors & log.between("2005-12-05 18:00", "2005-12-05 19:00", "1s")))
    q.count("notices-last-hour", "dates-in-words", "notices in the last hour of the log?",
            count(log.level("notice") & log.last("1h")))
    q.ranked("top-3-error-states", "ranking", "top 3 error state numbers", top(log.extract(r"in error state (\d+)"), 3))
    q.count("client-10", "honest-zero", "how many lines came from client 10.0.0.1?", count(log.grep("[client 10.0.0.1]")))
    q.count("critical", "honest-zero", "how many critical entries in the apache log?", count(log.level("crit")))
    q.count("not-notices", "plain", "How many lines are there other than notices?", count(~log.level("notice")))
    q.count("child-pids", "plain", "How many distinct child pids were found in the scoreboard?",
            unique(log.extract(r"Found child (\d+)")))


def bgl(log: LogData, q: Questions) -> None:
    component, tlb = log.col("Component"), log.grep("data TLB error interrupt")
    q.count("storage-interrupts", "terse", "data storage interrupts?", count(log.grep("data storage interrupt")))
    q.count("ce-sym", "terse", "CE sym lines?", count(log.grep("CE sym")))
    q.count("ddr-rank", "wordy", "For the Blue Gene/L RAS log, could you count how many times ddr errors were "
            "detected and corrected on a rank?", count(log.grep("detected and corrected on rank")))
    q.count("floating-point", "typo", "how many floting point alignment exceptions?",
            count(log.grep("floating point alignment exceptions")))
    q.count("assert", "typo", "how many idoproxydb asert lines?", count(log.grep("idoproxydb hit ASSERT")))
    q.count("jun14", "dates-in-words", "how many lines on the 14th of June 2005?", count(log.day("2005-06-14")))
    q.count("fatal-nov", "dates-in-words", "FATAL lines in November 2005?", count(log.level("FATAL") &
                                                                                log.day("2005-11")))
    q.ranked("top-tlb-node", "ranking", "which node logged the most data TLB error interrupts?",
             top(log.col("Node")[tlb]))
    q.ranked("top-error-component", "ranking", "which component logged the most ERROR lines?",
             top(component[log.level("ERROR")]))
    q.count("discovery", "came-from", "how many lines came from the DISCOVERY component?",
            count(component == "DISCOVERY"))
    q.count("node-r30", "came-from", "how many lines came from node R30-M0-N9-C:J16-U01?",
            count(log.col("Node") == "R30-M0-N9-C:J16-U01"))
    q.count("year-2004", "honest-zero", "how many entries from the year 2004?", count(log.day("2004")))
    q.count("tlb-nodes", "plain", "How many distinct nodes reported data TLB error interrupts?",
            unique(log.col("Node")[tlb]))
    q.count("kernel-not-info", "plain", "How many KERNEL lines have a level other than INFO?",
            count((component == "KERNEL") & ~log.level("INFO")))


def hdfs(log: LogData, q: Questions) -> None:
    component, warn = log.col("Component"), log.level("WARN")
    q.count("terminating", "terse", "PacketResponder terminating lines?",
            agree(count(log.grep("terminating")), count(log.grep("PacketResponder") & log.grep("terminating"))))
    q.count("served", "terse", "Served block count", count(log.grep("Served block")))
    q.count("received", "wordy", "I'm chasing slow writes on the datanodes. How many blocks were received, going "
            "by the 'Received block' lines?",
            agree(count(log.grep("Received block")), unique(log.extract(r"Received block (blk_-?\d+)"))))
    q.count("blockmap", "typo", "how many blockMap updtes?", count(log.grep("blockMap updated")))
    q.count("serving-warnings", "typo", "how many 'Got exception while serving' warnigns?",
            agree(count(log.grep("Got exception while serving")), count(log.grep("Got exception while serving") & warn)))
    q.count("warn-last-hour", "honest-zero", "how many WARN lines in the last hour of the log?",
            count(warn & log.last("1h")))
    q.count("nov10-9-10", "dates-in-words", "how many lines between 9 and 10 am on Nov 10th?",
            count(log.between("2008-11-10 09:00", "2008-11-10 10:00", "1s")))
    q.ranked("top-dest", "ranking", "which destination IP shows up most in Receiving block lines?",
             top(log.extract(r"Receiving block \S+ src: /\S+ dest: /" + IP)))
    q.count("scanner", "came-from", "how many lines were logged by the DataBlockScanner?",
            count(component == "dfs.DataBlockScanner"))
    q.count("namesystem-nov11", "came-from", "how many lines came from dfs.FSNamesystem on November 11th?",
            count((component == "dfs.FSNamesystem") & log.day("2008-11-11")))
    q.count("fatal", "honest-zero", "how many FATAL lines in hdfs?", count(log.level("FATAL")))
    q.count("allocated", "plain", "How many distinct blocks were allocated?",
            unique(log.extract(r"allocateBlock: \S+ (blk_-?\d+)")))
    q.count("not-namesystem", "plain", "How many lines came from components other than dfs.FSNamesystem?",
            count(component != "dfs.FSNamesystem"))


def hpc(log: LogData, q: Questions) -> None:
    node, component = log.col("Node"), log.col("Component")
    q.count("remain-current", "terse", "'link errors remain current' lines?", count(log.grep("link errors remain current")))
    q.count("no-server", "terse", "ClusterFileSystem no server lines?",
            count(log.grep("There is no server for ServerFileSystem")))
    q.count("niff", "wordy", "Some of our nodes have flaky networking. Could you count how many times NIFF detected "
            "an available network connection?", count(log.grep("has detected an available network connection")))
    q.count("clusterfs", "typo", "how many lines from the clusterfilesytem component?",
            count(component == "clusterfilesystem"))
    q.count("partition", "typo", "how many partiton component lines?", count(component == "partition"))
    q.count("mar-2004", "dates-in-words", "how many events in March 2004?", count(log.day("2004-03")))
    q.count("year-2006", "dates-in-words", "how many lines logged in 2006?", count(log.day("2006")))
    q.ranked("top-configured-out", "ranking", "which node had the most 'configured out' events?",
             top(node[log.grep("configured out")]))
    q.ranked("top-component-2005", "ranking", "which component logged the most lines in 2005?",
             top(component[log.day("2005")]))
    q.count("interconnect-1n01", "came-from", "how many lines came from Interconnect-1N01?",
            count(node == "Interconnect-1N01"))
    q.count("gige3", "came-from", "how many entries did gige3 log?", count(node == "gige3"))
    q.count("gige99", "honest-zero", "gige99 lines?", count(node == "gige99"))
    q.count("states", "plain", "How many distinct states are there?", unique(log.col("State")))
    q.count("flag-not-1", "plain", "How many lines have a flag other than 1?", count(log.col("Flag") != "1"))


def hadoop(log: LogData, q: Questions) -> None:
    component, errors = log.col("Component"), log.level("ERROR")
    q.count("slow-start", "terse", "slow start threshold not met count",
            count(log.grep("Reduce slow start threshold not met")))
    q.count("headroom", "terse", "schedule recalculations?", count(log.grep("Recalculating schedule")))
    q.count("after-scheduling", "wordy", "The job seemed stuck in scheduling. How many times did the "
            "RMContainerAllocator print 'After Scheduling'?", count(log.grep("After Scheduling")))
    q.count("assigned", "typo", "how many containers were asigned?", count(log.grep("Assigned container")))
    q.count("opening-proxy", "typo", "how many 'Opening proxy' lines were loged?", count(log.grep("Opening proxy")))
    q.count("fatal-oct18", "dates-in-words", "how many FATAL entries were logged on October 18?",
            count(log.level("FATAL") & log.day("2015-10-18")))
    q.ranked("top-warn-component", "ranking", "which component logged the most WARN lines?",
             top(component[log.level("WARN")]))
    q.ranked("top-progress-attempt", "ranking", "which task attempt reported progress most often?",
             top(log.extract(r"Progress of TaskAttempt (attempt_\S+) is")))
    q.count("dispatcher", "came-from", "how many lines came from the AsyncDispatcher event handler thread?",
            count(log.col("Process") == "AsyncDispatcher event handler"))
    q.count("task-attempt-impl", "came-from", "how many lines were logged by TaskAttemptImpl?",
            count(component.str.endswith(".TaskAttemptImpl")))
    q.count("oct19", "honest-zero", "how many lines in the hadoop log for October 19?", count(log.day("2015-10-19")))
    q.count("containers", "plain", "How many distinct containers were assigned?",
            unique(log.extract(r"Assigned container (container_\S+) to")))
    q.count("other-errors", "plain", "How many ERROR lines are there other than 'ERROR IN CONTACTING RM'?",
            count(errors & ~log.grep("ERROR IN CONTACTING RM")))


def healthapp(log: LogData, q: Questions) -> None:
    component = log.col("Component")
    q.count("detail-steps", "terse", "getTodayTotalDetailSteps count", count(log.grep("getTodayTotalDetailSteps")))
    q.count("altitude", "terse", "altitude recalculations?", count(log.grep("calculateAltitudeWithCache")))
    q.count("set-steps", "wordy", "My step counter looks off. Could you count how many times the app set today's "
            "total detail steps (the setTodayTotalDetailSteps lines)?", count(log.grep("setTodayTotalDetailSteps")))
    q.count("ext-sdm", "typo", "how many lines from Step_ExtSMD?", count(component == "Step_ExtSDM"))
    q.count("auto-sync", "typo", "how many 'needAutoSync' lines were loggd?", count(log.grep("needAutoSync")))
    q.count("2300-2310", "dates-in-words", "how many lines between 11pm and 11:10pm on December 23rd?",
            count(log.between("2017-12-23 23:00", "2017-12-23 23:10", "1s")))
    q.count("last-30min", "dates-in-words", "how many lines in the last 30 minutes of the log?",
            count(log.last("30min")))
    q.ranked("top-component-dec24", "ranking", "which component logged the most lines on December 24th?",
             top(component[log.day("2017-12-24")]))
    q.ranked("top-3-components", "ranking", "top 3 components by lines", top(component, 3))
    q.count("stand-report", "came-from", "how many lines came from Step_StandReportReceiver?",
            count(component == "Step_StandReportReceiver"))
    q.count("data-stat", "came-from", "how many lines were logged by HiH_DataStatManager?",
            count(component == "HiH_DataStatManager"))
    q.count("exceptions", "honest-zero", "any exceptions in the health app log?", count(log.grep("exception")))
    q.count("components-dec24", "plain", "How many distinct components logged on December 24?",
            unique(component[log.day("2017-12-24")]))
    q.count("not-lsc", "plain", "How many lines are from components other than Step_LSC?",
            count(component != "Step_LSC"))


def linux(log: LogData, q: Questions) -> None:
    component, y = log.col("Component"), year_of(log)
    auth, ftp = log.grep("authentication failure"), log.grep("connection from")
    q.count("kerberos", "terse", "Kerberos authentication failed count", count(log.grep("Kerberos authentication failed")))
    q.count("cupsd", "terse", "cupsd startups?", count(log.grep("cupsd startup succeeded")))
    q.count("ftp-207", "wordy", "We're auditing the FTP server on this box; could you count how many FTP "
            "connections came from 207.30.238.8 in total?",
            agree(count(log.grep("connection from 207.30.238.8 ")),
                  count(log.grep("connection from 207.30.238.8 ") & (component == "ftpd"))))
    q.count("alert", "typo", "how many 'ALERT exited abnormaly' lines?", count(log.grep("ALERT exited abnormally")))
    q.count("root-closed", "typo", "how many sesions were closed for root?",
            count(log.grep("session closed for user root")))
    q.count("auth-jul1", "dates-in-words", "how many authentication failures on the 1st of July?",
            count(auth & log.day(f"{y}-07-01")))
    q.count("ftp-june", "dates-in-words", "how many ftp connections in June?",
            agree(count(ftp & log.day(f"{y}-06")), count(ftp & log.day(f"{y}-06") & (component == "ftpd"))))
    q.ranked("top-process-july", "ranking", "which process logged the most lines in July?",
             top(component[log.day(f"{y}-07")]))
    q.count("cups", "came-from", "how many lines were logged by cups?", count(component == "cups"))
    q.count("sshd", "came-from", "how many lines came from sshd?",
            agree(count(component == "sshd(pam_unix)"), count(log.grep("sshd"))))
    q.count("admin-failures", "honest-zero", "how many authentication failures for user admin?",
            count(auth & log.grep("user=admin")))
    q.count("rhosts", "plain", "How many distinct remote hosts had authentication failures?",
            unique(log.extract(r"rhost=(\S+)", auth)))
    q.count("not-ftpd", "plain", "how many lines are there other than ftpd ones?", count(component != "ftpd"))


def mac(log: LogData, q: Questions) -> None:
    component, y = log.col("Component"), year_of(log)
    q.count("dnssd", "terse", "dnssd connect retries?", count(log.grep("dnssd_clientstub ConnectToServer")))
    q.count("early-wake", "wordy", "My MacBook keeps waking up at night. Could you count how many 'earlyWake' lines "
            "the Thunderbolt HAL logged?", count(log.grep("earlyWake")))
    q.count("preroll", "typo", "how many preroll-complete notifcations?",
            count(log.grep("unexpected preroll-complete notification")))
    q.count("corecaptured", "typo", "how many lines did corecaptrued log?", count(component == "corecaptured"))
    q.count("kernel-jul8", "dates-in-words", "how many kernel lines on the 8th of July?",
            count((component == "kernel") & log.day(f"{y}-07-08")))
    q.count("jul3-17-18", "dates-in-words", "how many lines between 5 and 6 pm on July 3?",
            count(log.between(f"{y}-07-03 17:00", f"{y}-07-03 18:00", "1s")))
    q.ranked("top-process-jul5", "ranking", "which process logged the most lines on July 5th?",
             top(component[log.day(f"{y}-07-05")]))
    q.ranked("top-3-hosts", "ranking", "top 3 hosts by number of lines", top(log.col("User"), 3))
    q.count("locationd", "came-from", "how many lines came from locationd?", count(component == "locationd"))
    q.count("word", "came-from", "how many lines were written by Microsoft Word?", count(component == "Microsoft Word"))
    q.count("firefox", "honest-zero", "how many lines from Firefox?", count(log.grep("Firefox")))
    q.count("processes", "plain", "How many distinct processes are there?", unique(component))
    q.count("not-kernel", "plain", "how many lines came from processes other than the kernel?",
            count(component != "kernel"))


def openssh(log: LogData, q: Questions) -> None:
    failed, y = log.grep("Failed password"), year_of(log)
    q.count("no-more-methods", "terse", "'No more user authentication methods' count",
            count(log.grep("No more user authentication methods available")))
    q.count("reverse-mapping", "terse", "reverse mapping failures?", count(log.grep("reverse mapping checking")))
    q.count("no-identification", "wordy", "We're seeing scanners hit LabSZ. Can you count how many times sshd did not "
            "receive an identification string from a client?", count(log.grep("Did not receive identification string")))
    q.count("failed-187", "typo", "how many failed pasword lines from 187.141.143.180?",
            count(failed & log.grep("from 187.141.143.180 ")))
    q.count("user-unknown", "typo", "how many 'check pass; user unknwon' lines?", count(log.grep("check pass; user unknown")))
    q.count("failed-last-30min", "dates-in-words", "failed passwords in the last 30 minutes of the log?",
            count(failed & log.last("30min")))
    q.count("10-1030", "dates-in-words", "how many lines between 10 and 10:30 am?",
            count(log.between(f"{y}-12-10 10:00", f"{y}-12-10 10:30", "1s")))
    q.ranked("top-pid", "ranking", "which pid logged the most lines?", top(log.col("Pid")))
    q.ranked("top-3-bye", "ranking", "top 3 IPs by 'Bye Bye' disconnects",
             top(log.extract(r"Received disconnect from " + IP + r": \d+: Bye Bye"), 3))
    q.count("from-112", "came-from", "how many lines came from 112.95.230.3?", count(log.regex(r"\b112\.95\.230\.3\b")))
    q.count("auth-187", "came-from", "how many authentication failures came from rhost 187.141.143.180?",
            count(log.grep("authentication failure") & log.grep("rhost=187.141.143.180")))
    q.count("publickey", "honest-zero", "how many accepted publickey logins?", count(log.grep("Accepted publickey")))
    q.count("failed-not-root", "plain", "How many failed password lines are there other than those for root?",
            agree(count(failed & ~log.grep("Failed password for root ")),
                  count(failed & ~log.regex(r"Failed password for (?:invalid user )?root "))))
    # a failed login is a line sshd writes for a failed password: "Failed password for [invalid user] U from ..."
    # (EventTemplate E9, E10) or "message repeated N times: [ Failed password for ...]" (E14), each line once
    structured, raw = loghub_readings(log, "OpenSSH")
    with q.refusing("failed-per-hour-average"):
        q.measured("failed-per-hour-average", "statistic", "average number of failed logins per hour?", both(
            structured.rate(log.col("EventTemplate").str.contains("Failed password", regex=False), "1h", "mean"),
            raw.rate(log.regex(r"sshd\[\d+\]: (?:message repeated \d+ times: \[ )?Failed password for "), "1h",
                     "mean")))


def openstack(log: LogData, q: Questions) -> None:
    component = log.col("Component")
    q.count("get", "terse", "GET requests?", count(log.grep('"GET ')))
    q.count("paused", "terse", "VM Paused events?", count(log.grep("VM Paused")))
    q.count("unknown-base", "wordy", "The image cache on the compute node looks noisy. Could you count how many "
            "'Unknown base file' lines it logged?", count(log.grep("Unknown base file")))
    q.count("terminated", "typo", "how many instnaces were terminated?", count(log.grep("Terminating instance")))
    q.count("started", "typo", "how many 'VM Started' evnets?", count(log.grep("VM Started")))
    q.count("200-last-4min", "dates-in-words", "how many requests came back with 200 in the last 4 minutes of the "
            "log?", count(log.grep("status: 200") & log.last("4min")))
    q.ranked("top-pid", "ranking", "which pid wrote the most lines?", top(log.col("Pid")))
    q.ranked("top-3-components", "ranking", "top 3 components by line count", top(component, 3))
    q.count("metadata", "came-from", "how many lines came from nova.metadata.wsgi.server?",
            count(component == "nova.metadata.wsgi.server"))
    q.count("claims", "came-from", "how many lines were logged by nova.compute.claims?",
            count(component == "nova.compute.claims"))
    q.count("503", "honest-zero", "how many 503 responses did the API send?", count(log.grep("status: 503")))
    q.count("not-get", "plain", "How many requests were made other than GET requests?",
            agree(count(log.grep("status: ") & ~log.grep('"GET ')), count(log.regex(r'"(?:POST|DELETE|PUT|HEAD) '))))
    q.count("terminated-instances", "plain", "How many distinct instances were terminated?",
            unique(log.extract(r"\[instance: ([0-9a-f-]{36})\] Terminating instance")))


def proxifier(log: LogData, q: Questions) -> None:
    program, errors, y = log.col("Program"), log.grep(" error : "), year_of(log)
    q.count("chrome-64", "terse", "chrome.exe *64 lines?", count(program == "chrome.exe *64"))
    q.count("connect-to-proxy", "terse", "'Could not connect to proxy' count", count(log.grep("Could not connect to proxy")))
    q.count("dropbox-errors", "wordy", "My Dropbox sync keeps failing behind the university proxy. Can you count how "
            "many errors Dropbox.exe got?", count((program == "Dropbox.exe") & errors))
    q.count("closed-unexpectedly", "typo", "how many 'Proxy closed the conection unexpectedly' errors?",
            count(log.grep("Proxy closed the connection unexpectedly")))
    q.count("sogou", "typo", "how many lines from SogouClod.exe?", count(program == "SogouCloud.exe"))
    q.count("jul26", "dates-in-words", "how many lines on the 26th of July?", count(log.day(f"{y}-07-26")))
    q.count("errors-oct30-17-18", "dates-in-words", "errors between 5 and 6 pm on Oct 30?",
            count(errors & log.between(f"{y}-10-30 17:00", f"{y}-10-30 18:00", "1s")))
    q.ranked("top-close-program", "ranking", "which program closed the most connections?",
             top(program[log.grep(" close, ")]))
    q.ranked("top-3-programs", "ranking", "top 3 programs by number of lines", top(program, 3))
    q.count("github", "came-from", "how many lines came from GitHub.exe?", count(program == "GitHub.exe"))
    q.count("sgtool", "came-from", "how many lines were logged by SGTool.exe?", count(program == "SGTool.exe"))
    q.count("iexplore", "honest-zero", "how many lines from iexplore.exe?", count(log.grep("iexplore.exe")))
    q.count("programs", "plain", "How many distinct programs used the proxy?", unique(program))
    q.count("errors-not-canceled", "plain", "How many errors are there other than canceled connection requests?",
            count(errors & ~log.grep("A connection request was canceled")))


def spark(log: LogData, q: Questions) -> None:
    component = log.col("Component")
    q.count("input-splits", "terse", "input splits?", count(log.grep("Input split:")))
    q.count("committed", "terse", "committed attempts?",
            agree(count(log.grep(": Committed")), count(log.grep("committed"))))
    q.count("times-total", "wordy", "I'm checking how the PySpark workers behaved. How many 'Times: total' lines "
            "did the python runner print?", count(log.grep("Times: total")))
    q.count("stored-values", "typo", "how many blocks were stored as vlaues in memory?",
            count(log.grep("stored as values in memory")))
    q.count("saved-output", "typo", "how many ouput files were saved?", count(log.grep("Saved output of task")))
    q.count("first-10s", "dates-in-words", "how many lines in the first 10 seconds of the log?",
            count(log.first("10s")))
    q.count("201044-201050", "dates-in-words", "how many lines between 8:10:44 pm and 8:10:50 pm on June 9th 2017?",
            count(log.between("2017-06-09 20:10:44", "2017-06-09 20:10:50", "1s")))
    q.ranked("top-not-executor", "ranking", "which component logged the most lines other than executor.Executor?",
             top(component[component != "executor.Executor"]))
    q.count("memory-store", "came-from", "how many lines came from the MemoryStore?",
            count(component == "storage.MemoryStore"))
    q.count("cache-manager", "came-from", "how many lines were logged by spark.CacheManager?",
            count(component == "spark.CacheManager"))
    q.count("warn", "honest-zero", "how many WARN lines in the spark log?", count(log.level("WARN")))
    q.count("not-info", "honest-zero", "how many lines other than INFO ones?", count(~log.level("INFO")))
    q.count("broadcasts", "plain", "How many distinct broadcast variables were read?",
            unique(log.extract(r"Started reading broadcast variable (\d+)")))


def thunderbird(log: LogData, q: Questions) -> None:
    host, component = log.col("User"), log.col("Component")
    synced = log.grep("synchronized to")
    q.count("no-topology-change", "terse", "'No topology change' lines?", count(log.grep("No topology change")))
    q.count("rrd-update", "terse", "RRD_update illegal attempts?", count(log.grep("illegal attempt to update")))
    q.count("deferred", "wordy", "Mail delivery seems stuck on this cluster. Could you count how many sendmail lines "
            "say the message was deferred?", count(log.grep("stat=Deferred")))
    q.count("dhcprequest", "typo", "how many DHCPREQEST lines?", count(log.grep("DHCPREQUEST")))
    q.count("domain-name", "typo", "how many 'unable to qualify my own domian name' lines?",
            count(log.grep("unable to qualify my own domain name")))
    q.count("after-1212", "dates-in-words", "how many lines after 12:12 pm on Nov 9 2005?",
            count(log.between("2005-11-09 12:12", "2005-11-10 00:00", "1s")))
    q.count("ntpd-first-20s", "dates-in-words", "ntpd lines in the first 20 seconds of the log?",
            agree(count((component == "ntpd") & log.first("20s")), count(log.grep(" ntpd[") & log.first("20s"))))
    q.ranked("top-ntp-server", "ranking", "which ntp server were nodes synchronized to most?",
             top(log.extract(r"synchronized to (\S+),", synced)))
    q.ranked("top-3-hosts", "ranking", "top 3 hosts by number of lines", top(host, 3))
    q.count("tbird-sm1", "came-from", "how many lines came from tbird-sm1?", count(host == "tbird-sm1"))
    q.count("xinetd", "came-from", "how many lines were logged by xinetd?", count(component == "xinetd"))
    q.count("oom", "honest-zero", "how many 'out of memory' lines?", count(log.grep("out of memory")))
    q.count("ntp-servers", "plain", "How many distinct ntp servers were nodes synchronized to?",
            unique(log.extract(r"synchronized to (\S+),", synced)))
    q.count("not-admin1", "plain", "how many lines came from hosts other than tbird-admin1?",
            count(host != "tbird-admin1"))


def windows(log: LogData, q: Questions) -> None:
    component, applicability = log.col("Component"), log.grep("Read out cached package applicability")
    q.count("wcp", "terse", "WcpInitialize calls?", count(log.grep("WcpInitialize")))
    q.count("trusted-installer", "terse", "TrustedInstaller starts?",
            count(log.grep("TrustedInstaller service starts successfully")))
    q.count("applicability-sep29", "wordy", "I'm trying to see why Windows Update was slow. Could you count how "
            "many times CBS read out cached package applicability on September 29th?",
            count(applicability & log.day("2016-09-29")))
    q.count("unloading", "typo", "how many times was an offline registry hive unloded?",
            count(log.grep("Unloading offline registry hive")))
    q.count("invalid-package", "typo", "how many CBS_E_INVALID_PACKAGE erors?", count(log.grep("CBS_E_INVALID_PACKAGE")))
    q.count("sep29-00-01", "dates-in-words", "how many lines between midnight and 1 am on the 29th of September?",
            count(log.between("2016-09-29 00:00", "2016-09-29 01:00", "1s")))
    q.count("csi-sep28", "dates-in-words", "CSI lines on September 28?", count((component == "CSI") &
                                                                              log.day("2016-09-28")))
    q.ranked("top-applicable-state", "ranking", "which ApplicableState value shows up most?",
             top(log.extract(r"ApplicableState: (\d+)", applicability)))
    q.ranked("top-hresult-name", "ranking", "which HRESULT error name shows up most?",
             top(log.extract(r"HRESULT = 0x[0-9a-f]+ - (\w+)\]")))
    q.count("cbs", "came-from", "how many lines were written by CBS?", count(component == "CBS"))
    q.count("error-level", "honest-zero", "how many Error level lines?", count(log.level("Error")))
    q.count("winrm", "honest-zero", "how many lines from WinRM?", count(log.grep("WinRM")))
    q.count("wua-sessions", "plain", "How many distinct sessions did WindowsUpdateAgent initialize?",
            unique(log.extract(r"Session: (\S+) initialized by client WindowsUpdateAgent")))


def zookeeper(log: LogData, q: Questions) -> None:
    thread = log.col("Node")
    q.count("goodbye", "terse", "GOODBYE lines?", count(log.grep("GOODBYE")))
    q.count("notification-timeouts", "terse", "notification timeouts?", count(log.grep("Notification time out")))
    q.count("unexpected-shutdown", "wordy", "We lost quorum at some point. Could you count how many 'Unexpected "
            "exception causing shutdown while sock still open' lines there are?",
            count(log.grep("Unexpected exception causing shutdown while sock still open")))
    q.count("terminations", "typo", "how many sesion terminations were processed?",
            count(log.grep("Processed session termination")))
    q.count("accepted", "typo", "how many socket conections were accepted?", count(log.grep("Accepted socket connection")))
    q.count("aug24", "dates-in-words", "how many lines on the 24th of August 2015?", count(log.day("2015-08-24")))
    q.count("warn-jul31", "dates-in-words", "how many warnings on July 31st?",
            count(log.level("WARN") & log.day("2015-07-31")))
    q.ranked("top-socket-ip", "ranking", "which client IP opened the most socket connections?",
             top(log.extract(r"Accepted socket connection from /" + IP)))
    q.count("recvworker", "came-from", "how many messages did the RecvWorker thread log?",
            agree(count(thread == "RecvWorker"), count(log.grep("[RecvWorker:"))))
    q.count("commit-processor", "came-from", "how many lines were logged by the CommitProcessor?",
            count(log.grep("CommitProcessor")))
    q.count("sep-2015", "honest-zero", "how many lines in September 2015?", count(log.day("2015-09")))
    q.count("expired-sessions", "plain", "How many distinct session ids expired?",
            unique(log.extract(r"Expiring session (0x[0-9a-f]+)")))
    q.count("other-warn", "plain", "How many WARN lines are there other than 'Interrupted while waiting' ones?",
            count(log.level("WARN") & ~log.grep("Interrupted while waiting")))


CHECK_SYSTEMS: dict[str, Callable[[LogData, Questions], None]] = {
    "Android": android, "Apache": apache, "BGL": bgl, "HDFS": hdfs, "HPC": hpc, "Hadoop": hadoop,
    "HealthApp": healthapp, "Linux": linux, "Mac": mac, "OpenSSH": openssh, "OpenStack": openstack,
    "Proxifier": proxifier, "Spark": spark, "Thunderbird": thunderbird, "Windows": windows, "Zookeeper": zookeeper,
}
