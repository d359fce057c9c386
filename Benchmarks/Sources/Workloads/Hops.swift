// The queue hops after h2, each after its floor (the same hop with no library): a RunLoop on a
// thread of its own (a3, h3), a serial OperationQueue (a4, h4), and the main queue, reached
// from a background thread (a5, h5). The floors run in both builds, as a2 does; the hops in
// CombineEx's only (OpenCombine's RunLoop and OperationQueue schedulers live in a module the
// benchmarks do not depend on, and it has no UIScheduler).
import BenchmarkKit
import Dispatch
import Foundation

#if !BENCH_OPENCOMBINE
  import CombineEx
#endif

/// The workloads of this file, in report order.
func hopWorkloads() -> [Workload] {
  var workloads = [
    Workload(
      "a3", "raw hop: RunLoop.perform per value (no library)", unit: "element",
      metric: .wallTime, body: rawRunLoopHop),
    Workload(
      "a4", "raw hop: serial OperationQueue, addOperation (no library)", unit: "element",
      metric: .wallTime, body: rawOperationQueueHop),
    Workload(
      "a5", "raw hop: DispatchQueue.main.async from a thread (no library)", unit: "element",
      metric: .wallTime, body: rawMainQueueHop),
  ]
  #if !BENCH_OPENCOMBINE
    workloads.insert(
      Workload(
        "h3", "subject.receive(on: RunLoop).sink", unit: "element", metric: .wallTime,
        targets: [.withinFactorOf("a3", 1.2)], body: receiveOnRunLoop),
      at: 1)
    workloads.insert(
      Workload(
        "h4", "subject.receive(on: OperationQueue).sink", unit: "element", metric: .wallTime,
        targets: [.withinFactorOf("a4", 1.2)], body: receiveOnOperationQueue),
      at: 3)
    workloads.append(
      Workload(
        "h5", "UIScheduler from a thread: receive(on:).sink", unit: "element",
        metric: .wallTime, targets: [.withinFactorOf("a5", 1.2)], body: receiveOnUIScheduler))
  #endif
  return workloads
}

/// a3: h3's floor: one `perform` per value on a run loop that another thread runs, the region
/// ending when the run loop has run the last.
func rawRunLoopHop(_ bench: Bench) {
  let count = bench.size(200_000)
  let thread = RunLoopThread()
  let runLoop = thread.runLoop
  let total = HopTotal(Total())
  let finished = DispatchSemaphore(value: 0)
  bench.measure(units: count) {
    for index in 0..<count { runLoop.perform { total.add(index) } }
    runLoop.perform { finished.signal() }
    finished.wait()
  }
  thread.stop()
  bench.consume(total.value)
}

/// a4: h4's floor: one `addOperation` per value on a serial operation queue, the region ending
/// when the queue has run them all.
func rawOperationQueueHop(_ bench: Bench) {
  let count = bench.size(200_000)
  let queue = serialOperationQueue()
  let total = HopTotal(Total())
  bench.measure(units: count) {
    for index in 0..<count { queue.addOperation { total.add(index) } }
    queue.waitUntilAllOperationsAreFinished()
  }
  bench.consume(total.value)
}

/// a5: h5's floor: a background thread sends one `DispatchQueue.main.async` per value while
/// this (the main) thread runs the main run loop, which runs the main queue's work; the region
/// ends when the main queue has run the last.
func rawMainQueueHop(_ bench: Bench) {
  let count = bench.size(200_000)
  let total = HopTotal(Total())
  let done = MainThreadFlag()
  let producer = BackgroundThread {
    for index in 0..<count { DispatchQueue.main.async { total.add(index) } }
    DispatchQueue.main.async { done.set() }
  }
  bench.measure(units: count) {
    producer.start()
    runMainRunLoop(until: done)
  }
  bench.consume(total.value)
}

#if !BENCH_OPENCOMBINE
  /// h3: values sent to a subject on this thread and delivered on a run loop that another
  /// thread runs; the region ends when the sink has received the completion.
  func receiveOnRunLoop(_ bench: Bench) {
    let count = bench.size(200_000)
    let thread = RunLoopThread()
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let finished = DispatchSemaphore(value: 0)
    let cancellable = subject.receive(on: thread.runLoop)
      .sink(receiveCompletion: { _ in finished.signal() }, receiveValue: { total.add($0) })
    bench.measure(units: count) {
      for index in 0..<count { subject.send(index) }
      subject.send(completion: .finished)
      finished.wait()
    }
    cancellable.cancel()
    thread.stop()
    bench.consume(total.value)
  }

  /// h4: values sent to a subject on this thread and delivered on a serial operation queue;
  /// the region ends when the sink has received the completion.
  func receiveOnOperationQueue(_ bench: Bench) {
    let count = bench.size(200_000)
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let finished = DispatchSemaphore(value: 0)
    let cancellable = subject.receive(on: serialOperationQueue())
      .sink(receiveCompletion: { _ in finished.signal() }, receiveValue: { total.add($0) })
    bench.measure(units: count) {
      for index in 0..<count { subject.send(index) }
      subject.send(completion: .finished)
      finished.wait()
    }
    cancellable.cancel()
    bench.consume(total.value)
  }

  /// h5: values sent to a subject on a background thread and delivered through
  /// `receive(on: UIScheduler.shared)` on the main queue, which this (the main) thread runs
  /// with the main run loop; the region ends when the sink has received the completion.
  func receiveOnUIScheduler(_ bench: Bench) {
    let count = bench.size(200_000)
    let subject = PassthroughSubject<Int, Never>()
    let total = Total()
    let done = MainThreadFlag()
    let cancellable = subject.receive(on: UIScheduler.shared)
      .sink(receiveCompletion: { _ in done.set() }, receiveValue: { total.add($0) })
    let producer = BackgroundThread {
      for index in 0..<count { subject.send(index) }
      subject.send(completion: .finished)
    }
    bench.measure(units: count) {
      producer.start()
      runMainRunLoop(until: done)
    }
    cancellable.cancel()
    bench.consume(total.value)
  }
#endif

/// An operation queue that runs one operation at a time.
private func serialOperationQueue() -> OperationQueue {
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount = 1
  return queue
}

/// A thread that runs its run loop until ``stop()``.
private final class RunLoopThread: @unchecked Sendable {
  // @unchecked Sendable: `loop` is written once, on the thread, before `init` returns (the
  // semaphore orders it); `running` is only touched on the thread itself.
  private var loop: RunLoop?
  private var running = true

  init() {
    let ready = DispatchSemaphore(value: 0)
    Thread {
      self.loop = RunLoop.current
      // A timer keeps the run loop alive: without a source, running it returns at once.
      let keepAlive = Timer(timeInterval: 3600, repeats: true) { _ in }
      RunLoop.current.add(keepAlive, forMode: .default)
      ready.signal()
      while self.running {
        _ = RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
      }
      keepAlive.invalidate()
    }.start()
    ready.wait()
  }

  /// The thread's run loop.
  var runLoop: RunLoop { loop! }

  /// Ends the thread once its run loop has run what was performed before.
  func stop() {
    runLoop.perform { self.running = false }
  }
}

/// A thread that runs `body` once ``start()`` is called (so that creating it is not measured).
private final class BackgroundThread: Sendable {
  private let go = DispatchSemaphore(value: 0)

  init(_ body: @escaping @Sendable () -> Void) {
    let go = self.go
    Thread {
      go.wait()
      body()
    }.start()
  }

  func start() { go.signal() }
}

/// A flag that only the main thread sets and reads.
private final class MainThreadFlag: @unchecked Sendable {
  // @unchecked Sendable: set by work the main queue runs, read by the main thread's loop in
  // `runMainRunLoop(until:)`, both on the main thread.
  private(set) var isSet = false

  func set() { isSet = true }
}

/// Runs the main run loop, which runs the main queue's work, until `done` is set. The main
/// thread only: the benchmark's runner runs there.
private func runMainRunLoop(until done: MainThreadFlag) {
  precondition(Thread.isMainThread, "the main-queue workloads run on the main thread")
  while !done.isSet {
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
  }
}
