"""Operator-style questions over the 16 loghub samples, with expected values from loghub's structured CSVs
(pandas) and the raw lines (case-insensitive substring or regex), never from react-engine.

Each function writes one system's questions; `REAL_LOGS` is where the suite finds the logs, relative to evals/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
from operator_data import LogData, Questions, agree, count, top, unique

REAL_LOGS = "../../shared/real_logs"  # relative to evals/: the logs stay outside the repository

IP = r"(\d{1,3}(?:\.\d{1,3}){3})"


def android(log: LogData, q: Questions) -> None:
    q.count("errors", "terse", "android errors?", count(log.or_worse("E")))
    q.count("set-lights-on", "terse", "setLightsOn(true) count", count(log.grep("setLightsOn(true)")))
    q.count("wake-locks", "wordy", "I'm looking at a phone's logcat here. How many times did PowerManagerService "
            "acquire a wake lock (the 'acquire lock' lines)?",
            agree(count(log.grep("acquire lock")), count(log.grep("acquire lock") & (log.col("Component") ==
                                                                                     "PowerManagerService"))))
    q.count("brightness", "typo", "how many brightnes animations?", count(log.grep("Animating brightness")))
    q.count("verbose", "typo", "how many verbos lines are there", count(log.level("V")))
    q.count("last-minute", "dates-in-words", "how many lines in the last minute of the log?", count(log.last("1min")))
    q.count("warnings-mar17", "dates-in-words", "how many warnings did the phone log on March 17?",
            count(log.level("W") & log.day(f"{year_of(log)}-03-17")))
    q.ranked("top-tag", "ranking", "which tag logged the most lines?", top(log.col("Component")))
    q.ranked("top-pid", "ranking", "which pid wrote the most lines?", top(log.col("Pid")))
    q.count("pid-2227", "came-from", "how many lines came from pid 2227?", count(log.col("Pid") == "2227"))
    q.count("activity-manager", "came-from", "How many messages were logged by ActivityManager?",
            count(log.col("Component") == "ActivityManager"))
    q.count("fatal", "honest-zero", "how many FATAL lines?", agree(count(log.level("F")), count(log.grep("fatal"))))
    q.count("running-app-processes", "plain", "How many lines mention getRunningAppProcesses?",
            count(log.grep("getRunningAppProcesses")))
    q.count("unique-pids", "plain", "How many unique pids are there?", unique(log.col("Pid")))
    q.count("power-manager", "came-from", "how many lines were produced by PowerManagerService?",
            count(log.col("Component") == "PowerManagerService"))


def apache(log: LogData, q: Questions) -> None:
    errors = log.level("error")
    q.count("errors", "terse", "apache errors?", agree(count(errors), count(log.grep("[error]"))))
    q.count("found-child", "terse", "found child lines", count(log.grep("Found child")))
    q.count("cant-find-child", "wordy", "I'm going through this Apache error log and I'd like to know how many "
            "times it said it can't find a child in the scoreboard. Can you count those?",
            count(log.grep("Can't find child")))
    q.count("notices", "typo", "how many notcie lines?", count(log.level("notice")))
    q.count("error-state", "typo", "how many mod_jk erorr state messages?",
            agree(count(log.grep("error state")), count(log.grep("mod_jk child workerEnv in error state"))))
    q.count("errors-dec5", "dates-in-words", "errors on December 5th 2005?", count(errors & log.day("2005-12-05")))
    q.count("lines-dec4", "dates-in-words", "How many lines were logged on Sunday Dec 4?", count(log.day("2005-12-04")))
    q.ranked("top-error-state", "ranking", "which error state number shows up most in the mod_jk lines?",
             top(log.extract(r"in error state (\d+)")))
    q.count("mod-jk", "came-from", "how many lines came from mod_jk?", count(log.grep("mod_jk")))
    q.count("jk2-init", "came-from", "how many entries were logged by jk2_init?", count(log.grep("jk2_init()")))
    q.count("segfault", "honest-zero", "how many segfault lines are in the apache log?", count(log.grep("segfault")))
    q.count("warnings-dec5", "honest-zero", "warnings on Dec 5?", count(log.level("warn") & log.day("2005-12-05")))
    q.count("forbidden", "plain", 'How many lines mention "Directory index forbidden"?',
            count(log.grep("Directory index forbidden")))
    q.count("forbidden-ips", "plain", "How many unique client IPs were refused a directory index?",
            unique(log.extract(r"\[client " + IP + r"\] Directory index forbidden")))
    q.count("found-child-dec5", "wordy", "Looking at December 5th only, how many 'Found child' lines did jk2_init "
            "write?", count(log.grep("Found child") & log.day("2005-12-05")))
    q.count("errors-after-8pm", "honest-zero", "how many errors after 8pm on Dec 5?",
            count(log.level("error") & (log.stamps > pd.Timestamp("2005-12-05 20:00"))))


def bgl(log: LogData, q: Questions) -> None:
    fatal = log.level("FATAL")
    q.count("fatal", "terse", "FATAL entries?", count(fatal))
    q.count("severe", "terse", "SEVERE entries?", count(log.level("SEVERE")))
    q.count("cores", "wordy", "For the Blue Gene/L log, can you tell me how many times a core file was being "
            "generated? I mean the 'generating core' lines.", count(log.grep("generating core")))
    q.count("parity", "typo", "how many instruction cache parity erors were corrected?",
            count(log.grep("instruction cache parity error corrected")))
    q.count("tlb", "typo", "how many data TLB eror interrupts?", count(log.grep("data TLB error interrupt")))
    q.count("fatal-jul9", "dates-in-words", "how many FATAL events on July 9 2005?",
            count(fatal & log.day("2005-07-09")))
    q.count("dec-2005", "dates-in-words", "lines logged in December 2005?",
            count(log.day("2005-12")))
    q.ranked("top-fatal-component", "ranking", "which component has the most FATAL messages?",
             top(log.col("Component")[fatal]))
    q.ranked("top-label", "ranking", "which alert label (other than '-') shows up most?",
             top(log.col("Label")[log.col("Label") != "-"]))
    q.count("app", "came-from", "how many lines came from the APP component?", count(log.col("Component") == "APP"))
    q.count("mmcs", "came-from", "How many entries were logged by MMCS?", count(log.col("Component") == "MMCS"))
    q.count("kernel-panic", "honest-zero", "kernel panic count?", count(log.grep("kernel panic")))
    q.count("kerndtlb", "plain", "How many lines have the KERNDTLB alert label?",
            count(log.col("Label") == "KERNDTLB"))
    q.count("kernel-info", "wordy", "For this supercomputer RAS log, how many lines come from the KERNEL component "
            "with level INFO?", count((log.col("Component") == "KERNEL") & log.level("INFO")))
    q.count("fatal-nodes", "plain", "How many unique nodes logged FATAL events?", unique(log.col("Node")[fatal]))
    q.count("year-2005", "dates-in-words", "how many lines in 2005?", count(log.day("2005")))
    q.count("fatal-jul-2005", "dates-in-words", "how many FATAL entries in July 2005?",
            count(fatal & log.day("2005-07")))


def hdfs(log: LogData, q: Questions) -> None:
    warn = log.level("WARN")
    q.count("warn", "terse", "WARN count?", count(warn))
    q.count("allocate", "terse", "allocateBlock calls?", count(log.grep("NameSystem.allocateBlock")))
    q.count("serving-exceptions", "wordy", "Looking at the HDFS logs, I need the number of times a DataNode got an "
            "exception while serving a block to someone. How many were there?",
            count(log.grep("Got exception while serving")))
    q.count("receiving", "typo", "how many Recieving block lines?", count(log.grep("Receiving block")))
    q.count("verified", "typo", "how many blocks had verificaton succeed?",
            agree(count(log.grep("Verification succeeded")),
                  unique(log.extract(r"Verification succeeded for (blk_-?\d+)"))))
    q.count("nov10", "dates-in-words", "how many lines on Nov 10 2008?", count(log.day("2008-11-10")))
    q.count("warn-nov11", "dates-in-words", "WARN lines on November 11th?", count(warn & log.day("2008-11-11")))
    q.ranked("top-component", "ranking", "which component logged the most lines?", top(log.col("Component")))
    q.ranked("top-blockmap-ip", "ranking", "which datanode had blocks added to the blockMap most often?",
             top(log.extract(r"blockMap updated: " + IP + ":")))
    q.count("xceiver", "came-from", "how many lines came from dfs.DataNode$DataXceiver?",
            count(log.col("Component") == "dfs.DataNode$DataXceiver"))
    q.count("fsdataset", "came-from", "How many messages came from the FSDataset?",
            count(log.col("Component") == "dfs.FSDataset"))
    q.count("errors", "honest-zero", "any ERROR lines in hdfs? how many?",
            agree(count(log.level("ERROR")), count(log.grep("error"))))
    q.count("deleted-blocks", "plain", 'How many unique blocks appear in "Deleting block" lines?',
            unique(log.extract(r"Deleting block (blk_-?\d+)")))
    q.count("invalidset", "wordy", "Please count how many times NameSystem.delete added a block to the invalidSet.",
            count(log.grep("NameSystem.delete") & log.grep("invalidSet")))
    q.count("nov12", "honest-zero", "how many lines on Nov 12 2008?", count(log.day("2008-11-12")))


def hpc(log: LogData, q: Questions) -> None:
    q.count("unavailable", "terse", "unavailable state changes?",
            agree(count(log.col("State") == "state_change.unavailable"), count(log.grep("unavailable state"))))
    q.count("linkerror", "terse", "Linkerror events?", count(log.grep("Linkerror")))
    q.count("not-responding", "wordy", "Our HPC cluster keeps losing nodes; could you count how many times "
            "something was reported as 'not responding' in this log?", count(log.grep("not responding")))
    q.count("configured-out", "typo", "how many 'configured out' evnts?", count(log.grep("configured out")))
    q.count("fan-speeds", "typo", "how many fan speds lines?", count(log.grep("Fan speeds")))
    q.count("year-2004", "dates-in-words", "how many events in 2004?", count(log.day("2004")))
    q.count("nov-2005", "dates-in-words", "events logged in November 2005?",
            count(log.day("2005-11")))
    q.ranked("top-node", "ranking", "which node logged the most lines?", top(log.col("Node")))
    q.ranked("top-linkerror-node", "ranking", "which node reported the most Linkerror events?",
             top(log.col("Node")[log.grep("Linkerror")]))
    q.count("gige6", "came-from", "how many lines came from gige6?", count(log.col("Node") == "gige6"))
    q.count("switch-module", "came-from", "How many lines were logged by the switch_module component?",
            count(log.col("Component") == "switch_module"))
    q.count("node-999", "honest-zero", "how many lines came from node-999?", count(log.col("Node") == "node-999"))
    q.count("unique-nodes", "plain", "How many unique nodes appear in the log?", unique(log.col("Node")))


def hadoop(log: LogData, q: Questions) -> None:
    q.count("fatal", "terse", "fatal lines?", count(log.level("FATAL")))
    q.count("errors", "terse", "hadoop errors?", count(log.or_worse("ERROR")))
    q.count("contacting-rm", "wordy", "I'm triaging a MapReduce job that hung: how many times did it fail to "
            "contact the ResourceManager (the 'ERROR IN CONTACTING RM' lines)?",
            count(log.grep("ERROR IN CONTACTING RM")))
    q.count("lease", "typo", "how many lease renewl failures?", count(log.grep("Failed to renew lease")))
    q.count("retrying", "typo", "retrying conect to server count", count(log.grep("Retrying connect to server")))
    q.count("errors-oct18", "dates-in-words", "how many ERROR lines on the 18th of October?",
            count(log.level("ERROR") & log.day("2015-10-18")))
    q.count("oct18", "dates-in-words", "how many WARN entries on October 18th 2015?",
            count(log.level("WARN") & log.day("2015-10-18")))
    q.ranked("top-warn-thread", "ranking", "which thread produced the most WARN messages?",
             top(log.col("Process")[log.level("WARN")]))
    q.ranked("top-error-component", "ranking", "which component logged the most errors?",
             top(log.col("Component")[log.level("ERROR")]))
    q.count("rm-allocator", "came-from", "how many lines came from the RMCommunicator Allocator thread?",
            count(log.col("Process") == "RMCommunicator Allocator"))
    q.count("ipc-client", "came-from", "How many lines were logged by org.apache.hadoop.ipc.Client?",
            count(log.col("Component") == "org.apache.hadoop.ipc.Client"))
    q.count("debug", "honest-zero", "how many DEBUG lines?", count(log.level("DEBUG")))
    q.count("progress-attempts", "plain", "How many distinct task attempts reported progress?",
            unique(log.extract(r"Progress of TaskAttempt (attempt_\S+) is")))
    q.count("address-change", "plain", 'How many lines mention "Address change detected"?',
            count(log.grep("Address change detected")))
    q.count("lease-renewer", "came-from", "how many lines were written by the LeaseRenewer thread?",
            count(log.col("Process").str.startswith("LeaseRenewer")))


def healthapp(log: LogData, q: Questions) -> None:
    q.count("stand-step", "terse", "onStandStepChanged count", count(log.grep("onStandStepChanged")))
    q.count("screen-on", "terse", "SCREEN_ON lines?", count(log.grep("SCREEN_ON")))
    q.count("calories", "wordy", "Can you tell me how many times the health app recalculated the total calories "
            "with its cache?", count(log.grep("calculateCaloriesWithCache")))
    q.count("screen-off", "typo", "how many scren off events?", count(log.grep("SCREEN_OFF")))
    q.count("flush", "typo", "how many times was sensor data flushd?", count(log.grep("flush sensor data")))
    q.count("dec24", "dates-in-words", "how many lines on Dec 24 2017?", count(log.day("2017-12-24")))
    q.count("dec23", "dates-in-words", "how many lines were logged on December 23rd?", count(log.day("2017-12-23")))
    q.ranked("top-component", "ranking", "which component logged the most?", top(log.col("Component")))
    q.ranked("top-extend", "ranking", "which component has the most onExtend messages?",
             top(log.col("Component")[log.grep("onExtend")]))
    q.count("sputils", "came-from", "how many lines came from Step_SPUtils?",
            count(log.col("Component") == "Step_SPUtils"))
    q.count("hisync", "came-from", "How many messages were logged by HiH_HiSyncControl?",
            count(log.col("Component") == "HiH_HiSyncControl"))
    q.count("crashes", "honest-zero", "how many crashes?", count(log.grep("crash")))
    q.count("time-tick", "plain", "How many lines contain TIME_TICK?", count(log.grep("TIME_TICK")))
    q.count("unique-components", "plain", "How many unique components are there?", unique(log.col("Component")))
    q.count("gps", "honest-zero", "how many lines from the Step_GPS component?", count(log.grep("Step_GPS")))
    q.count("lsc-first-hour", "dates-in-words", "Step_LSC entries in the first hour of the log?",
            count(log.first("1h") & (log.col("Component") == "Step_LSC")))


def linux(log: LogData, q: Questions) -> None:
    auth = log.grep("authentication failure")
    q.count("auth-failures", "terse", "'authentication failure' count?", count(auth))
    q.count("user-unknown", "terse", "check pass user unknown count", count(log.grep("check pass; user unknown")))
    q.count("root-failures", "wordy", "We think someone was brute-forcing ssh on this box; can you tell me how "
            "many sshd authentication failures for root there were in total?",
            agree(count(auth & log.grep("user=root") & (log.col("Component") == "sshd(pam_unix)")),
                  count(auth & log.grep("user=root"))))
    q.count("guest-failures", "typo", "how many authentcation failures for user guest?",
            count(auth & log.grep("user=guest")))
    q.count("sessions-opened", "typo", "how many sesions were opened?", count(log.grep("session opened")))
    q.count("auth-jul17", "dates-in-words", "'authentication failure' lines on July 17?",
            count(auth & log.day(f"{year_of(log)}-07-17")))
    jul9 = log.grep("connection from") & log.day(f"{year_of(log)}-07-09")
    q.count("ftp-jul9", "dates-in-words", "how many ftp connections on July 9th?",
            agree(count(jul9), count(jul9 & (log.col("Component") == "ftpd"))))
    q.ranked("top-rhost", "ranking", "which remote host had the most authentication failures?",
             top(log.extract(r"rhost=(\S+)", auth)))
    q.ranked("top-processes", "ranking", "top 3 processes by number of lines", top(log.col("Component"), 3))
    q.count("kernel", "came-from", "how many lines came from the kernel?", count(log.col("Component") == "kernel"))
    q.count("logrotate", "came-from", "How many messages were logged by logrotate?",
            count(log.col("Component") == "logrotate"))
    q.count("klogind", "came-from", "lines written by klogind?", count(log.col("Component") == "klogind"))
    q.count("segfaults", "honest-zero", "how many segfaults did the kernel report?", count(log.grep("segfault")))
    q.count("alert-exited", "plain", 'How many lines contain "ALERT exited abnormally"?',
            count(log.grep("ALERT exited abnormally")))
    q.count("su-sessions", "wordy", "I need to know, for the su command, how many sessions were opened in total "
            "according to this syslog.", count(log.grep("session opened") & (log.col("Component") == "su(pam_unix)")))
    q.count("nginx", "honest-zero", "how many lines came from nginx?", count(log.grep("nginx")))
    q.ranked("top-account", "ranking", "which account name shows up most often in authentication failures?",
             top(log.extract(r"authentication failure;.* user=(\S+)", auth)))


def mac(log: LogData, q: Questions) -> None:
    q.count("thermal", "terse", "thermal pressure lines?", count(log.grep("Thermal pressure state")))
    q.count("cocoa", "terse", "Cocoa scripting errors?", count(log.grep("Cocoa scripting error")))
    q.count("thunderbolt", "wordy", "I keep seeing Thunderbolt messages in this Mac's system log. Could you count "
            "how many Thunderbolt HPD packet lines there are?", count(log.grep("Thunderbolt HPD packet")))
    q.count("thermal-typo", "typo", "how many Thermal presure state lines?", count(log.grep("Thermal pressure state")))
    q.count("cocoa-typo", "typo", "how many Cocoa scriptng errors were logged?",
            count(log.grep("Cocoa scripting error")))
    q.count("jul4", "dates-in-words", "how many lines on July 4?", count(log.day(f"{year_of(log)}-07-04")))
    q.count("jul7-kernel", "dates-in-words", "kernel lines on the 7th of July?",
            count((log.col("Component") == "kernel") & log.day(f"{year_of(log)}-07-07")))
    q.ranked("top-host", "ranking", "which host logged the most lines?", top(log.col("User")))
    q.ranked("top-process", "ranking", "which process logged the most lines?", top(log.col("Component")))
    q.count("cts", "came-from", "how many lines came from com.apple.cts?",
            count(log.col("Component") == "com.apple.cts"))
    q.count("pid-258", "came-from", "lines written by pid 258?", count(log.col("PID") == "258"))
    q.count("sshd", "honest-zero", "how many lines from sshd?", count(log.grep("sshd")))
    q.count("unique-hosts", "plain", "How many unique hosts are in the log?", unique(log.col("User")))
    q.count("sandbox", "plain", "How many lines mention Sandbox?", count(log.grep("Sandbox")))
    q.count("qq", "came-from", "how many times does QQ show up as the process?", count(log.col("Component") == "QQ"))


def openssh(log: LogData, q: Questions) -> None:
    failed = log.grep("Failed password")
    q.count("root-failures", "terse", "failed password lines for root?",
            agree(count(log.grep("Failed password for root ")),
                  count(log.regex(r"Failed password for (?:invalid user )?root "))))
    q.count("break-in", "terse", "break-in attempts?", count(log.grep("POSSIBLE BREAK-IN ATTEMPT")))
    q.count("bye-bye", "wordy", "I'm triaging this sshd log from LabSZ: how many times did a client disconnect "
            "with 'Bye Bye'?", count(log.grep("Bye Bye")))
    q.count("failed-ips", "wordy", "Could you count how many different IP addresses had a failed password "
            "attempt, please?", unique(log.extract(r"Failed password for .* from " + IP, failed)))
    q.count("failed", "typo", "how many faild pasword attempts?", count(failed))
    q.count("disconnects", "typo", "recieved disconnect count", count(log.grep("Received disconnect")))
    q.count("failed-9-10", "dates-in-words", "failed passwords between 9 and 10am?",
            count(failed & log.between(f"{year_of(log)}-12-10 09:00", f"{year_of(log)}-12-10 10:00", "1s")))
    q.count("first-hour", "dates-in-words", "how many lines in the first hour of the log?", count(log.first("1h")))
    q.ranked("top-failed-ip", "ranking", "which IP had the most failed password attempts?",
             top(log.extract(r"Failed password for .* from " + IP, failed)))
    q.ranked("top-invalid-user", "ranking", "which username shows up most often in 'Invalid user' lines?",
             top(log.extract(r"Invalid user (\S+) from")))
    q.count("pid-24200", "came-from", "how many lines were written by pid 24200?", count(log.col("Pid") == "24200"))
    q.count("auth-from-103", "came-from", "how many 'authentication failure' lines came from 103.99.0.122?",
            count(log.grep("authentication failure") & log.grep("rhost=103.99.0.122")))
    q.count("accepted-root", "honest-zero", "accepted logins for root?", count(log.grep("Accepted password for root")))
    q.count("break-in-ips", "plain", 'How many unique IPs had a "POSSIBLE BREAK-IN ATTEMPT"?',
            unique(log.extract(r"\[" + IP + r"\] failed - POSSIBLE BREAK-IN ATTEMPT")))
    q.ranked("top-5-failed-ips", "ranking", "which 5 IP addresses had the most failed logins?",
             top(log.extract(r"Failed password for .* from " + IP, failed), 5))
    q.ranked("top-ip-wordy", "wordy", "Hi, I'm looking at the sshd log for LabSZ. Can you tell me which IP address "
             "was behind the most 'Failed password' lines?", top(log.extract(r"Failed password for .* from " + IP,
                                                                             failed)))
    q.count("around-0930", "dates-in-words", "how many lines around 09:30?",
            count(log.between(f"{year_of(log)}-12-10 09:25", f"{year_of(log)}-12-10 09:35", "1s")))
    q.count("closed", "plain", 'How many lines contain "Connection closed by"?',
            count(log.grep("Connection closed by")))
    q.count("successful-root", "honest-zero", "successful root logins?",
            agree(count(log.grep("Accepted password for root")), count(log.regex(r"Accepted \S+ for root "))))


def openstack(log: LogData, q: Questions) -> None:
    q.count("404", "terse", "404s?", count(log.grep("status: 404")))
    q.count("warning", "terse", "WARNING lines?", count(log.level("WARNING")))
    q.count("delete", "wordy", "Can you tell me how many DELETE requests the nova API served in this log?",
            count(log.grep('"DELETE ')))
    q.count("resumed", "typo", "how many VM Resumd events?", count(log.grep("VM Resumed")))
    q.count("post", "typo", "how many POST requets?", count(log.grep('"POST ')))
    q.count("last-30s", "dates-in-words", "how many lines in the last 30 seconds of the log?", count(log.last("30s")))
    q.count("0006-0008", "dates-in-words", "how many lines between 00:06 and 00:08 on May 16th 2017?",
            count(log.between("2017-05-16 00:06", "2017-05-16 00:08", "1s")))
    q.ranked("top-instance", "ranking", "which instance ID appears in the most lines?",
             top(log.extract(r"\[instance: ([0-9a-f-]{36})\]")))
    q.ranked("top-status", "ranking", "which HTTP status came back most often?", top(log.extract(r"status: (\d{3})")))
    q.count("compute-manager", "came-from", "how many lines came from nova.compute.manager?",
            count(log.col("Component") == "nova.compute.manager"))
    q.count("pid-2931", "came-from", "lines logged by pid 2931?", count(log.col("Pid") == "2931"))
    q.count("500", "honest-zero", "how many requests returned 500?", count(log.grep("status: 500")))
    q.count("unique-instances", "plain", "How many unique instance IDs are mentioned?",
            unique(log.extract(r"\[instance: ([0-9a-f-]{36})\]")))
    q.count("build-times", "wordy", "Our users say VMs take long to build. How many 'Took ... seconds to build "
            "instance' lines are there?", count(log.grep("seconds to build instance")))
    q.count("errors", "honest-zero", "how many ERROR lines?",
            agree(count(log.level("ERROR")), count(log.grep("error"))))
    q.count("404-wordy", "wordy", "Looking at the nova API lines, how many requests came back with a 404?",
            count(log.grep("status: 404")))


def proxifier(log: LogData, q: Questions) -> None:
    errors = log.grep(" error : ")
    q.count("errors", "terse", "proxifier error count?", agree(count(errors), count(log.grep("error"))))
    q.count("socks5", "terse", "SOCKS5 connections?", count(log.grep("SOCKS5")))
    q.count("closed", "wordy", "I'd like to know how many connections closed normally. Can you count the lines "
            "where a connection closed and reported its bytes sent and received?",
            agree(count(log.grep(" close, ")), count(log.grep("lifetime"))))
    q.count("resolve", "typo", "how many 'Could not resolve' erors?", count(log.grep("Could not resolve")))
    q.count("canceled", "typo", "how many times was a conection request canceled?",
            count(log.grep("A connection request was canceled")))
    q.count("jul27", "dates-in-words", "how many lines on July 27?", count(log.day(f"{year_of(log)}-07-27")))
    q.count("oct30", "dates-in-words", "entries logged on October 30th?", count(log.day(f"{year_of(log)}-10-30")))
    q.ranked("top-error-program", "ranking", "which program hit the most proxy errors?",
             top(log.col("Program")[errors]))
    q.ranked("top-open-program", "ranking", "which program opened the most connections through the proxy?",
             top(log.col("Program")[log.grep("open through proxy")]))
    q.count("dropbox", "came-from", "how many lines came from Dropbox.exe?", count(log.col("Program") == "Dropbox.exe"))
    q.count("wechat", "came-from", "how many lines were logged by WeChat?",
            agree(count(log.col("Program") == "WeChat.exe"), count(log.grep("WeChat"))))
    q.count("opera", "honest-zero", "how many lines from opera.exe?", count(log.grep("opera.exe")))
    q.ranked("top-program", "ranking", "which program appears in the most lines?", top(log.col("Program")))
    q.count("open-through", "plain", 'How many lines contain "open through proxy"?',
            count(log.grep("open through proxy")))
    q.count("cannot-establish", "wordy", "Could you tell me how many lines say the proxy server cannot establish a "
            "connection with the target?", count(log.grep("Proxy server cannot establish a connection")))


def spark(log: LogData, q: Questions) -> None:
    q.count("finished", "terse", "tasks finished?", count(log.grep("Finished task")))
    q.count("partitions", "terse", "rdd partitions not found?", count(log.regex(r"Partition rdd_\S+ not found")))
    q.count("assigned", "wordy", "How many times did the executor get a task assigned? I mean the "
            "'Got assigned task' lines.", count(log.grep("Got assigned task")))
    q.count("found-locally", "typo", "how many times was a block found localy?", count(log.grep("locally")))
    q.count("partitions-typo", "typo", "how many partitons were not found?",
            count(log.regex(r"Partition rdd_\S+ not found")))
    q.count("2011-0", "dates-in-words", "how many lines between 20:10:50 and 20:11:00 on June 9th 2017?",
            count(log.between("2017-06-09 20:10:50", "2017-06-09 20:11:00", "1s")))
    q.count("last-5s", "dates-in-words", "how many lines were logged in the last 5 seconds?",
            count(log.last("5s")))
    q.ranked("top-component", "ranking", "which component logged the most lines?", top(log.col("Component")))
    q.ranked("top-3-components", "ranking", "top 3 components by number of lines?", top(log.col("Component"), 3))
    q.count("block-manager", "came-from", "how many lines came from storage.BlockManager?",
            count(log.col("Component") == "storage.BlockManager"))
    q.count("python-runner", "came-from", "How many messages were logged by the python runner?",
            count(log.col("Component") == "python.PythonRunner"))
    q.count("errors", "honest-zero", "how many errors in the spark log?",
            agree(count(log.level("ERROR")), count(log.grep("error"))))
    q.count("exceptions", "honest-zero", "Spark exceptions?", count(log.grep("exception")))
    q.count("unique-tids", "plain", "How many distinct TIDs finished?",
            unique(log.extract(r"Finished task \S+ in stage \S+ \(TID (\d+)\)")))
    q.count("stored-bytes", "wordy", "I want to see how much the executor kept in memory: how many 'stored as bytes "
            "in memory' lines are there?", count(log.grep("stored as bytes in memory")))


def thunderbird(log: LogData, q: Questions) -> None:
    host = log.col("User")
    q.count("ntp-syncs", "terse", "ntpd 'synchronized to' lines?",
            agree(count(log.grep("synchronized to")), count(log.grep("synchronized to") & (log.col("Component") ==
                                                                                           "ntpd"))))
    q.count("no-free-leases", "terse", "no free leases?", count(log.grep("no free leases")))
    q.count("gmetad", "wordy", "Our monitoring daemon is complaining: can you count how many times gmetad said "
            "it got no answer from any datasource?", count(log.grep("got not answer from any")))
    q.count("root-sessions", "typo", "how many sesion opened lines for root?",
            count(log.grep("session opened for user root")))
    q.count("resolve", "typo", "how many 'faild to resolve' lines?", count(log.grep("failed to resolve")))
    q.count("1206-1212", "dates-in-words", "lines between 12:06 and 12:12 on Nov 9 2005?",
            count(log.between("2005-11-09 12:06", "2005-11-09 12:12", "1s")))
    q.count("last-10-min", "dates-in-words", "how many lines in the last 10 minutes?", count(log.last("10min")))
    q.ranked("top-host", "ranking", "which host logged the most lines?", top(host))
    q.ranked("top-dhcp-host", "ranking", "which host logged the most dhcpd lines?",
             top(host[log.col("Component") == "dhcpd"]))
    q.count("ntpd", "came-from", "how many lines came from ntpd?", count(log.col("Component") == "ntpd"))
    q.count("dn228", "came-from", "how many lines were logged by dn228?", count(host == "dn228"))
    q.count("ssh-failures", "honest-zero", "how many failed password attempts?", count(log.grep("Failed password")))
    q.count("unique-hosts", "plain", "How many unique hosts are there?", unique(host))
    q.count("dhcpdiscover", "plain", "How many lines contain DHCPDISCOVER?", count(log.grep("DHCPDISCOVER")))
    q.count("last-24h", "terse", "entries in the last 24h?", count(log.last("24h")))
    q.count("dn1200", "honest-zero", "lines from dn1200?", agree(count(host == "dn1200"), count(log.grep("dn1200"))))


def windows(log: LogData, q: Questions) -> None:
    q.count("manifest", "terse", "CBS_E_MANIFEST_INVALID_ITEM count?", count(log.grep("CBS_E_MANIFEST_INVALID_ITEM")))
    q.count("unrecognized", "terse", "unrecognized packageExtended attribute lines?",
            count(log.grep("Unrecognized packageExtended attribute")))
    q.count("sessions", "wordy", "I'm checking a Windows update servicing log: how many sessions were initialized "
            "by the WindowsUpdateAgent client?", count(log.grep("initialized by client WindowsUpdateAgent")))
    q.count("open-package", "typo", "how many 'Failed to internally open package' erors?",
            count(log.grep("Failed to internally open package")))
    q.count("hives", "typo", "how many 'Loading offline registy hive' lines?",
            count(log.grep("Loading offline registry hive")))
    q.count("sep29", "dates-in-words", "lines on Sept 29 2016?", count(log.day("2016-09-29")))
    q.count("sep28-4am", "dates-in-words", "how many lines between 4am and 5am on September 28th?",
            count(log.between("2016-09-28 04:00", "2016-09-28 05:00")))
    q.ranked("top-component", "ranking", "which component wrote the most lines?", top(log.col("Component")))
    q.ranked("top-hresult", "ranking", "which HRESULT code shows up most?",
             top(log.extract(r"HRESULT = (0x[0-9a-f]+)")))
    q.count("csi", "came-from", "how many lines came from CSI?", count(log.col("Component") == "CSI"))
    q.count("cbs-sep28", "came-from", "how many lines were logged by CBS on Sept 28th?",
            count((log.col("Component") == "CBS") & log.day("2016-09-28")))
    q.count("debug", "honest-zero", "how many debug lines?", agree(count(log.level("Debug")), count(log.grep("debug"))))
    q.count("applicability", "plain", 'How many lines mention "Read out cached package applicability"?',
            count(log.grep("Read out cached package applicability")))
    q.count("unique-packages", "plain", "How many unique packages had their cached applicability read out?",
            unique(log.extract(r"applicability for package: ([^,]+),")))


def zookeeper(log: LogData, q: Questions) -> None:
    q.count("errors", "terse", "zookeeper errors?", count(log.or_worse("ERROR")))
    q.count("expiring", "terse", "expired sessions?", count(log.grep("Expiring session")))
    q.count("broken", "wordy", "Could you check how many times a connection was broken ('Connection broken for "
            "id') across the whole log?", count(log.grep("Connection broken for id")))
    q.count("interrupted", "typo", "how many 'Interupted while waiting for message' warnings?",
            agree(count(log.grep("Interrupted while waiting for message")),
                  count(log.grep("Interrupted while waiting for message") & log.level("WARN"))))
    q.count("established", "typo", "how many sessions were establised?", count(log.grep("Established session")))
    q.count("0729-19-21", "dates-in-words", "how many lines between 2015-07-29 19:00 and 21:00?",
            count(log.between("2015-07-29 19:00", "2015-07-29 21:00", "1s")))
    q.count("jul30", "dates-in-words", "how many lines on July 30 2015?", count(log.day("2015-07-30")))
    q.ranked("top-request-ip", "ranking", "which IP address sent the most connection requests?",
             top(log.extract(r"Received connection request /" + IP + ":")))
    q.ranked("top-session-ip", "ranking", "which client IP had the most sessions established?",
             top(log.extract(r"Established session \S+ with negotiated timeout \d+ for client /" + IP + ":")))
    q.count("sendworker", "came-from", "how many lines came from the SendWorker thread?",
            agree(count(log.col("Node") == "SendWorker"), count(log.grep("[SendWorker:"))))
    q.count("nio-factory", "came-from", "How many messages were logged by NIOServerCxn.Factory?",
            agree(count(log.col("Node") == "NIOServerCxn.Factory"), count(log.grep("[NIOServerCxn.Factory:"))))
    q.count("fatal", "honest-zero", "how many FATAL lines?", count(log.level("FATAL")))
    q.count("session-ips", "plain", "How many unique client IPs had sessions established?",
            unique(log.extract(r"Established session \S+ with negotiated timeout \d+ for client /" + IP + ":")))
    q.count("election-channel", "wordy", "We had a ZooKeeper election problem. Can you count the lines where it "
            "could not open a channel to another server at the election address?",
            count(log.grep("Cannot open channel to")))
    q.count("warn", "plain", "How many WARN lines are there?", count(log.level("WARN")))
    q.count("jul28", "honest-zero", "how many lines on July 28 2015?", count(log.day("2015-07-28")))
    q.count("aug10", "dates-in-words", "anything logged on Aug 10 2015? how many lines?",
            count(log.day("2015-08-10")))


def year_of(log: LogData) -> int:
    """The year of a log whose lines carry none (the suite's)."""
    return int(log.stamps.dt.year.iloc[0])


SYSTEMS: dict[str, Callable[[LogData, Questions], None]] = {
    "Android": android, "Apache": apache, "BGL": bgl, "HDFS": hdfs, "HPC": hpc, "Hadoop": hadoop,
    "HealthApp": healthapp, "Linux": linux, "Mac": mac, "OpenSSH": openssh, "OpenStack": openstack,
    "Proxifier": proxifier, "Spark": spark, "Thunderbird": thunderbird, "Windows": windows, "Zookeeper": zookeeper,
}


def loghub_cases(root: Path, systems: dict[str, Callable[[LogData, Questions], None]] = SYSTEMS,
                 refused: list[str] | None = None) -> list[dict]:
    """Every system's cases (`systems`: a catalogue); `root` is the real_logs folder (REAL_LOGS seen from evals/).
    Questions left out because their readings disagree are added to `refused`."""
    cases: list[dict] = []
    for system, questions in systems.items():
        path = f"{REAL_LOGS}/{system}/{system}_2k.log"
        q = Questions(prefix=system.lower(), logs=[path], requires=[path])
        questions(LogData.loghub(root, system), q)
        cases += q.cases
        if refused is not None:
            refused += q.refused
    return cases
