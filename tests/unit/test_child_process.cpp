// util/child_process.h: a helper program runs where it is told, with what it is given, within its
// time, and leaves nothing running.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "fixtures/processes.h"
#include "util/child_process.h"

namespace blurlab {
namespace {

namespace fs = std::filesystem;

using test_fixtures::process_ended_within;

class ChildProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("blurlab_child_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  ChildResult sh(const std::string& script, double timeout_s = 30) {
    return run_child({.argv = {"sh", "-c", script}, .env = {"ONLY=this", "PATH=/usr/bin:/bin"}, .directory = dir_, .timeout_s = timeout_s});
  }
  fs::path dir_;
};

TEST_F(ChildProcess, RunsInItsDirectoryWithExactlyItsEnvironment) {
  const ChildResult r = sh("pwd; env | sort; echo to stderr >&2; exit 3");
  ASSERT_TRUE(r.started) << r.failure;
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.output, dir_.string() + "\nONLY=this\nPATH=/usr/bin:/bin\nPWD=" + dir_.string() + "\nto stderr\n");
}

TEST_F(ChildProcess, StartsWithDefaultSignalsInAGroupOfItsOwn) {
  // This process may ignore SIGPIPE (blurlab does); the child must not inherit that.
  const auto previous = std::signal(SIGPIPE, SIG_IGN);
  const ChildResult r = sh("grep -E '^SigIgn' /proc/self/status; cut -d' ' -f5 /proc/$$/stat; echo $$");
  std::signal(SIGPIPE, previous);
  ASSERT_TRUE(r.started) << r.failure;
  EXPECT_NE(r.output.find("SigIgn:\t0000000000000000\n"), std::string::npos) << r.output;
  std::istringstream lines(r.output.substr(r.output.find('\n') + 1));
  long group = 0, pid = 1;
  lines >> group >> pid;
  EXPECT_EQ(group, pid) << r.output;
  EXPECT_NE(group, static_cast<long>(::getpgrp()));
}

TEST_F(ChildProcess, TimeoutKillsItAndWhatItStarted) {
  const auto start = std::chrono::steady_clock::now();
  const ChildResult r = sh("sleep 1000 & echo $!; sleep 1000", 1);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  ASSERT_TRUE(r.started) << r.failure;
  EXPECT_TRUE(r.timed_out);
  const pid_t grandchild = static_cast<pid_t>(std::stol(r.output));
  EXPECT_TRUE(process_ended_within(grandchild, std::chrono::seconds(5))) << "the child's own child outlived the timeout";
}

TEST_F(ChildProcess, WhatItLeavesRunningIsKilledWhenItExits) {
  const ChildResult r = sh("sleep 1000 >/dev/null 2>&1 & echo $!");
  ASSERT_TRUE(r.started) << r.failure;
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(process_ended_within(static_cast<pid_t>(std::stol(r.output)), std::chrono::seconds(5)));
}

TEST_F(ChildProcess, ProgramThatCannotStartSaysWhy) {
  ChildResult r = run_child({.argv = {(dir_ / "missing").string()}, .env = {}, .directory = dir_});
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.failure, "No such file or directory");
  std::ofstream(dir_ / "not_executable") << "#!/bin/sh\n";
  r = run_child({.argv = {(dir_ / "not_executable").string()}, .env = {}, .directory = dir_});
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.failure, "Permission denied");
  r = run_child({.argv = {"no-such-program-on-path"}, .env = {}, .directory = dir_});
  EXPECT_EQ(r.failure, "No such file or directory");
}

TEST_F(ChildProcess, OutputIsBounded) {
  const ChildResult r = sh("head -c 5000000 /dev/zero");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output.size(), kMaxChildOutputBytes);
}

}  // namespace
}  // namespace blurlab
