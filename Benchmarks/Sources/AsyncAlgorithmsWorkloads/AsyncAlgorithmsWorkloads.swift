// The streams of the third table (issue 30, section 3) with swift-async-algorithms 1.1.4, what
// a Swift developer on Linux reaches for without Combine: an `AsyncChannel` stands for the
// subject, one task sends and one task consumes. The keys, sizes and checksums are those of
// CombineEx's side (Sources/Workloads/AsyncComparison.swift). Each measured region starts the
// two tasks and waits, on the benchmark's thread (not a thread of the cooperative pool), until
// the consumer has seen the last value.
//
// What the comparison means, and its caveats (an `AsyncChannel` send suspends until the
// consumer takes the value: back-pressure by design, and a task switch per element), are in
// Docs/Performance.md, "What a Linux user would pick instead".
import AsyncAlgorithms
import BenchmarkKit
import Dispatch
import Synchronization

/// The workloads of the comparison, in CombineEx's order.
public func allWorkloads() -> [Workload] {
  [
    Workload(
      "x1", "AsyncChannel, one consuming task; send", unit: "element", metric: .wallTime,
      body: channelOneConsumer),
    Workload(
      "x2", "merge(3 channels), one consuming task", unit: "element", metric: .wallTime,
      body: mergeOfThreeChannels),
    Workload(
      "x3", "merge(merge(3), merge(3), merge(2)) of channels", unit: "element",
      metric: .wallTime, body: mergeOfEightChannels),
    Workload(
      "x4", "combineLatest(2 channels), one consuming task", unit: "element",
      metric: .wallTime, body: combineLatestOfTwoChannels),
    Workload(
      "x5", "channel.debounce(5 ms): a burst, to its value", unit: "element",
      metric: .wallTime, body: debouncedChannelBurst),
  ]
}

/// What a consuming task computed, handed to the measuring thread with a semaphore.
private final class Outcome: Sendable {
  private let total = Atomic<Int>(0)
  private let finished = DispatchSemaphore(value: 0)

  /// Records the consumer's result and wakes the measuring thread.
  func finish(_ value: Int) {
    total.store(value, ordering: .relaxed)
    finished.signal()
  }

  /// Blocks the measuring thread until the consumer has finished.
  func wait() {
    finished.wait()
  }

  var value: Int { total.load(ordering: .relaxed) }
}

/// x1: a task sends values into a channel; another task consumes them.
private func channelOneConsumer(_ bench: Bench) {
  let count = bench.size(100_000)
  let channel = AsyncChannel<Int>()
  let outcome = Outcome()
  bench.measure(units: count) {
    Task {
      var sum = 0
      for await value in channel { sum &+= value }
      outcome.finish(sum)
    }
    Task {
      for index in 0..<count { await channel.send(index) }
      channel.finish()
    }
    outcome.wait()
  }
  bench.consume(outcome.value)
}

/// Sends `count` values round-robin to `channels` from a task, then finishes them all.
private func sendRoundRobin(_ count: Int, to channels: [AsyncChannel<Int>]) {
  Task {
    for index in 0..<count { await channels[index % channels.count].send(index) }
    for channel in channels { channel.finish() }
  }
}

/// x2: values sent round-robin to three channels, merged (`merge` of three, the largest).
private func mergeOfThreeChannels(_ bench: Bench) {
  let count = bench.size(50_000)
  let channels = (0..<3).map { _ in AsyncChannel<Int>() }
  let outcome = Outcome()
  bench.measure(units: count) {
    Task {
      var sum = 0
      for await value in merge(channels[0], channels[1], channels[2]) { sum &+= value }
      outcome.finish(sum)
    }
    sendRoundRobin(count, to: channels)
    outcome.wait()
  }
  bench.consume(outcome.value)
}

/// x3: values sent round-robin to eight channels, merged by nested `merge`s (three, three and
/// two, merged).
private func mergeOfEightChannels(_ bench: Bench) {
  let count = bench.size(50_000)
  let channels = (0..<8).map { _ in AsyncChannel<Int>() }
  let outcome = Outcome()
  bench.measure(units: count) {
    Task {
      var sum = 0
      let merged = merge(
        merge(channels[0], channels[1], channels[2]),
        merge(channels[3], channels[4], channels[5]),
        merge(channels[6], channels[7]))
      for await value in merged { sum &+= value }
      outcome.finish(sum)
    }
    sendRoundRobin(count, to: channels)
    outcome.wait()
  }
  bench.consume(outcome.value)
}

/// x4: values sent alternately to two channels, combined by `combineLatest`.
private func combineLatestOfTwoChannels(_ bench: Bench) {
  let count = bench.size(50_000)
  let channels = (0..<2).map { _ in AsyncChannel<Int>() }
  let outcome = Outcome()
  bench.measure(units: count) {
    Task {
      var sum = 0
      for await (first, second) in combineLatest(channels[0], channels[1]) {
        sum &+= first &+ second
      }
      outcome.finish(sum)
    }
    sendRoundRobin(count, to: channels)
    outcome.wait()
  }
  bench.consume(outcome.value)
}

/// x5: a burst of values sent to a channel debounced by 5 ms (on the continuous clock), until
/// the debounced value, the burst's last, arrives.
private func debouncedChannelBurst(_ bench: Bench) {
  let count = bench.size(20_000)
  let channel = AsyncChannel<Int>()
  let outcome = Outcome()
  bench.measure(units: count) {
    Task {
      for await value in channel.debounce(for: .milliseconds(5)) where value == count - 1 {
        outcome.finish(value)
        break
      }
    }
    Task {
      for index in 0..<count { await channel.send(index) }
    }
    outcome.wait()
  }
  channel.finish()
  bench.consume(outcome.value)
}
