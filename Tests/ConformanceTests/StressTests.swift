import CombineEx
import Foundation
import Testing

/// Rule 5 under load: subjects, properties and every registered publisher driven from 8
/// threads, with cancellation racing delivery. `.ci/run` runs these under the thread sanitizer
/// (`swift test --sanitize=thread --filter stress`).
@Suite("stress: concurrency conformance")
struct StressTests {
  static let threads = 8
  static let valuesPerThread = 1_500
  /// Each thread's values are `thread * stride + index`.
  static let stride = 1_000_000

  static var everyValue: [Int] {
    (0..<threads).flatMap { thread in
      (0..<valuesPerThread).map { thread * stride + $0 }
    }
  }

  @Test(
    "stress: a PassthroughSubject fed by 8 threads, with cancels racing delivery, loses, repeats and overlaps nothing"
  )
  func stressPassthroughSubjectSendsAndCancels() async {
    let subject = PassthroughSubject<Int, Never>()
    let kept = (0..<2).map { _ in StressRecorder<Int, Never>() }
    let cancelled = (0..<3).map { _ in StressRecorder<Int, Never>() }
    for recorder in kept + cancelled { subject.subscribe(recorder) }
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        if thread < cancelled.count, index == Self.valuesPerThread / (thread + 2) {
          cancelled[thread].cancel()
        }
      }
    }
    subject.send(completion: .finished)
    for recorder in kept {
      #expect(recorder.values.sorted() == Self.everyValue)
      #expect(ThreadedValues(values: recorder.values, stride: Self.stride).keepsEachThreadsOrder)
      #expect(recorder.overlappingDeliveries == 0)
      #expect(recorder.completionCount == 1)
    }
    for recorder in cancelled {
      let received = ThreadedValues(values: recorder.values, stride: Self.stride)
      #expect(!received.hasDuplicates && received.keepsEachThreadsOrder)
      #expect(recorder.overlappingDeliveries == 0)
      #expect(recorder.eventsAfterCancel <= 1)
      #expect(recorder.completionCount == 0)
    }
  }

  @Test(
    "stress: subscribers attach to and cancel from a PassthroughSubject while 4 threads send")
  func stressPassthroughSubjectSubscribesWhileSending() async {
    let subject = PassthroughSubject<Int, Never>()
    let kept = StressRecorder<Int, Never>()
    subject.subscribe(kept)
    let churn = UncheckedSendableBox(
      (0..<4).map { _ in (0..<60).map { _ in StressRecorder<Int, Never>() } })
    await onThreads(Self.threads) { thread in
      if thread < 4 {
        for index in 0..<Self.valuesPerThread { subject.send(thread * Self.stride + index) }
      } else {
        for recorder in churn.value[thread - 4] {
          subject.subscribe(recorder)
          sched_yield()
          recorder.cancel()
        }
      }
    }
    let expected = (0..<4).flatMap { thread in
      (0..<Self.valuesPerThread).map { thread * Self.stride + $0 }
    }
    #expect(kept.values.sorted() == expected)
    #expect(ThreadedValues(values: kept.values, stride: Self.stride).keepsEachThreadsOrder)
    for recorder in churn.value.joined() {
      let received = ThreadedValues(values: recorder.values, stride: Self.stride)
      #expect(!received.hasDuplicates && received.keepsEachThreadsOrder)
      #expect(recorder.overlappingDeliveries == 0 && recorder.eventsAfterCancel <= 1)
    }
    kept.cancel()  // Leaves nothing subscribed.
  }

  @Test(
    "stress: a CurrentValueSubject fed by 8 threads keeps value and delivery order in step, with cancels racing"
  )
  func stressCurrentValueSubjectSendsAndCancels() async {
    let subject = CurrentValueSubject<Int, Never>(-1)
    let kept = (0..<2).map { _ in StressRecorder<Int, Never>() }
    let cancelled = (0..<3).map { _ in StressRecorder<Int, Never>() }
    for recorder in kept + cancelled { subject.subscribe(recorder) }
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        _ = subject.value
        if thread < cancelled.count, index == Self.valuesPerThread / (thread + 2) {
          cancelled[thread].cancel()
        }
      }
    }
    for recorder in kept {
      let values = recorder.values
      #expect(values.first == -1)
      #expect(values.dropFirst().sorted() == Self.everyValue)
      #expect(
        ThreadedValues(values: Array(values.dropFirst()), stride: Self.stride).keepsEachThreadsOrder
      )
      // The last value delivered is the subject's value: storing and ordering agree.
      #expect(values.last == subject.value)
      #expect(recorder.overlappingDeliveries == 0)
    }
    for recorder in cancelled {
      let received = ThreadedValues(values: Array(recorder.values.dropFirst()), stride: Self.stride)
      #expect(!received.hasDuplicates && received.keepsEachThreadsOrder)
      #expect(recorder.overlappingDeliveries == 0 && recorder.eventsAfterCancel <= 1)
    }
    for recorder in kept + cancelled { recorder.cancel() }  // Leaves nothing subscribed.
  }

  @Test(
    "stress: MutableProperty.modify from 8 threads delivers every intermediate value, in order, to every subscriber"
  )
  func stressMutablePropertyModify() async {
    let property = MutableProperty(0)
    let kept = (0..<2).map { _ in StressRecorder<Int, Never>() }
    let cancelled = (0..<3).map { _ in StressRecorder<Int, Never>() }
    for recorder in kept + cancelled { property.subscribe(recorder) }
    let increments = 1_000
    await onThreads(Self.threads) { thread in
      for index in 0..<increments {
        property.modify { $0 += 1 }
        if thread < cancelled.count, index == increments / (thread + 2) {
          cancelled[thread].cancel()
        }
      }
    }
    let total = Self.threads * increments
    #expect(property.value == total)
    for recorder in kept {
      #expect(recorder.values == Array(0...total))
      #expect(recorder.overlappingDeliveries == 0)
    }
    for recorder in cancelled {
      // Every set is delivered in order: what a cancelled subscriber saw is 0, 1, 2, ...
      #expect(recorder.values == Array(0..<recorder.values.count))
      #expect(recorder.overlappingDeliveries == 0 && recorder.eventsAfterCancel <= 1)
    }
    for recorder in kept + cancelled { recorder.cancel() }  // Leaves nothing subscribed.
  }

  @Test(
    "stress: MutableProperty set, swapped and subscribed to from 8 threads gives each subscriber its current value first"
  )
  func stressMutablePropertySetAndSubscribe() async {
    let property = MutableProperty(0)
    let late = UncheckedSendableBox(
      (0..<4).map { _ in (0..<12).map { _ in StressRecorder<Int, Never>() } })
    await onThreads(Self.threads) { thread in
      if thread < 4 {
        for index in 1...600 {
          if index.isMultiple(of: 2) {
            property.value = thread * Self.stride + index
          } else {
            _ = property.swap(thread * Self.stride + index)
          }
        }
      } else {
        for recorder in late.value[thread - 4] {
          property.subscribe(recorder)
          _ = property.value
        }
      }
    }
    for recorder in late.value.joined() {
      let values = recorder.values
      #expect(!values.isEmpty)
      // After the current value, each thread's values arrive in the order it set them.
      #expect(
        ThreadedValues(values: Array(values.dropFirst()), stride: Self.stride).keepsEachThreadsOrder
      )
      #expect(values.last == property.value)
      #expect(recorder.overlappingDeliveries == 0)
    }
    for recorder in late.value.joined() { recorder.cancel() }  // Leaves nothing subscribed.
  }

  @Test("stress: AnyCancellable cancelled from 8 threads at once runs its cancel exactly once")
  func stressAnyCancellableCancelsOnce() async {
    let count = AtomicCounter()
    let cancellables = (0..<500).map { _ in AnyCancellable { count.increment() } }
    await onThreads(Self.threads) { _ in
      for cancellable in cancellables { cancellable.cancel() }
    }
    #expect(count.value == 500)
  }

  @Test(
    "stress: operator chains behind a subject fed by 8 threads deliver serially, with cancels racing"
  )
  func stressOperatorChainsBehindASubject() async {
    let subject = PassthroughSubject<Int, Never>()
    let mapped = StressRecorder<Int, Never>()
    let scanned = StressRecorder<Int, Never>()
    let collected = StressRecorder<[Int], Never>()
    let counted = StressRecorder<Int, Never>()
    let cancelledChain = StressRecorder<Int, Never>()
    let sinkValues = AtomicCounter()
    subject.map { $0 + 1 }.filter { $0 >= 0 }.subscribe(mapped)
    subject.scan(0) { count, _ in count + 1 }.subscribe(scanned)
    subject.collect(3).subscribe(collected)
    subject.count().subscribe(counted)
    subject.removeDuplicates().dropFirst(5).prefix(1_000_000).subscribe(cancelledChain)
    let sink = subject.sink { _ in sinkValues.increment() }
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        if thread == 0, index == 700 { cancelledChain.cancel() }
        if thread == 1, index == 900 { sink.cancel() }
      }
    }
    subject.send(completion: .finished)
    let total = Self.threads * Self.valuesPerThread
    #expect(mapped.values.count == total)
    #expect(scanned.values == Array(1...total))
    #expect(collected.values.flatMap { $0 }.sorted() == Self.everyValue)
    #expect(counted.values == [total])
    #expect(sinkValues.value < total)
    #expect(cancelledChain.eventsAfterCancel <= 1 && cancelledChain.completionCount == 0)
    for overlaps in [
      mapped.overlappingDeliveries, scanned.overlappingDeliveries,
      collected.overlappingDeliveries, counted.overlappingDeliveries,
      cancelledChain.overlappingDeliveries,
    ] {
      #expect(overlaps == 0)
    }
  }

  @Test(
    "stress: merging 8 subjects, each fed by its own thread, delivers every value once, serially, with a cancel racing"
  )
  func stressMergeManyOfSubjects() async {
    let subjects = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
    let kept = StressRecorder<Int, Never>()
    let cancelled = StressRecorder<Int, Never>()
    let merged3 = StressRecorder<Int, Never>()
    Publishers.MergeMany(subjects).subscribe(kept)
    Publishers.MergeMany(subjects).subscribe(cancelled)
    Publishers.Merge3(subjects[0], subjects[1], subjects[2]).subscribe(merged3)
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread {
        subjects[thread].send(thread * Self.stride + index)
        if thread == 7, index == 500 { cancelled.cancel() }
      }
      subjects[thread].send(completion: .finished)
    }
    #expect(kept.values.sorted() == Self.everyValue)
    #expect(ThreadedValues(values: kept.values, stride: Self.stride).keepsEachThreadsOrder)
    #expect(kept.completionCount == 1 && merged3.completionCount == 1)
    #expect(merged3.values.count == 3 * Self.valuesPerThread)
    let partial = ThreadedValues(values: cancelled.values, stride: Self.stride)
    #expect(!partial.hasDuplicates && partial.keepsEachThreadsOrder)
    #expect(cancelled.eventsAfterCancel <= 1 && cancelled.completionCount == 0)
    for recorder in [kept, cancelled, merged3] { #expect(recorder.overlappingDeliveries == 0) }
  }

  @Test(
    "stress: flatMap over inner subjects fed by 8 threads delivers every value once, serially")
  func stressFlatMapOfSubjects() async {
    let inner = (0..<Self.threads).map { _ in PassthroughSubject<Int, Never>() }
    let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let recorder = StressRecorder<Int, Never>()
    let limited = StressRecorder<Int, Never>()
    outer.flatMap { $0 }.subscribe(recorder)
    outer.flatMap(maxPublishers: .max(3)) { $0 }.subscribe(limited)
    for subject in inner { outer.send(subject) }
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread { inner[thread].send(thread * Self.stride + index) }
      inner[thread].send(completion: .finished)
    }
    outer.send(completion: .finished)
    #expect(recorder.values.sorted() == Self.everyValue)
    #expect(ThreadedValues(values: recorder.values, stride: Self.stride).keepsEachThreadsOrder)
    #expect(recorder.completionCount == 1)
    // With at most 3 inner publishers at a time, the others are subscribed as earlier ones
    // finish: whatever arrives arrives once, in each thread's order.
    let partial = ThreadedValues(values: limited.values, stride: Self.stride)
    #expect(!partial.hasDuplicates && partial.keepsEachThreadsOrder)
    #expect(limited.completionCount <= 1)
    #expect(recorder.overlappingDeliveries == 0 && limited.overlappingDeliveries == 0)
    limited.cancel()
  }

  @Test("stress: switchToLatest switching while 8 threads send delivers serially, in order")
  func stressSwitchToLatest() async {
    let inner = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let recorder = StressRecorder<Int, Never>()
    outer.switchToLatest().subscribe(recorder)
    await onThreads(Self.threads) { thread in
      if thread < 4 {
        for index in 0..<Self.valuesPerThread {
          inner[thread].send(thread * Self.stride + index)
        }
      } else {
        for round in 0..<200 { outer.send(inner[(thread + round) % 4]) }
      }
    }
    let received = ThreadedValues(values: recorder.values, stride: Self.stride)
    #expect(!received.hasDuplicates && received.keepsEachThreadsOrder)
    #expect(recorder.overlappingDeliveries == 0)
    #expect(recorder.completionCount == 0)
    recorder.cancel()
  }

  @Test(
    "stress: receive(on:) a serial DispatchQueue, fed by 8 threads, delivers every value once, on the queue"
  )
  func stressReceiveOnDispatchQueue() async {
    let queue = DispatchQueue(label: "conformance.receive-on")
    let subject = PassthroughSubject<Int, Never>()
    let recorder = StressRecorder<Int, Never>()
    let cancelled = StressRecorder<Int, Never>()
    subject.receive(on: queue).subscribe(recorder)
    subject.receive(on: queue).subscribe(cancelled)
    await onThreads(Self.threads) { thread in
      for index in 0..<Self.valuesPerThread {
        subject.send(thread * Self.stride + index)
        if thread == 0, index == 300 { cancelled.cancel() }
      }
    }
    subject.send(completion: .finished)
    queue.sync {}  // Every delivery scheduled so far has run.
    #expect(recorder.values.sorted() == Self.everyValue)
    #expect(ThreadedValues(values: recorder.values, stride: Self.stride).keepsEachThreadsOrder)
    #expect(recorder.completionCount == 1)
    #expect(cancelled.eventsAfterCancel <= 1 && cancelled.completionCount == 0)
    #expect(recorder.overlappingDeliveries == 0 && cancelled.overlappingDeliveries == 0)
  }

  @Test(
    "stress: every registered publisher, driven by its upstreams while 6 threads request and one cancels",
    arguments: Registry.cases)
  func stressEveryRegisteredPublisher(_ testCase: ConformanceCase) async {
    var problems: [String] = []
    var events = 0
    // Four rounds, and more (up to 16) while none has seen an event: a round whose cancelling
    // thread runs before any request legitimately sees nothing.
    for round in 0..<16 where round < 4 || events == 0 {
      let report = await testCase.stress(UInt64(round) + 1)
      problems += report.problems
      events += report.events
    }
    #expect(problems.isEmpty, "\(testCase.name):\n\(problems.joined(separator: "\n"))")
    // Every registered publisher delivers something when driven this way (a publisher that
    // never completes and has no upstream, such as `Empty(completeImmediately: false)`,
    // excepted), so a round that saw nothing would mean the stress exercised nothing.
    if !testCase.traits.contains(.neverCompletes) {
      #expect(events > 0, "\(testCase.name): nothing arrived in any round")
    }
  }
}
