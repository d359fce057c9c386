import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("MergeMany")
struct MergeManyTests {
  @Test("merges any number of publishers of one type")
  func mergesMany() {
    let subjects = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = Publishers.MergeMany(subjects).record()
    for (index, subject) in subjects.enumerated().reversed() {
      subject.send(index)
      subject.send(completion: .finished)
    }
    #expect(recorder.values == [4, 3, 2, 1, 0])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("merge(with:) of the same type makes a MergeMany, and MergeMany.merge(with:) stays flat")
  func sameTypeMergeIsFlat() {
    let merged: Publishers.MergeMany<Just<Int>> = Just(1).merge(with: Just(2))
    let more: Publishers.MergeMany<Just<Int>> = merged.merge(with: Just(3))
    #expect(more.publishers == [Just(1), Just(2), Just(3)])
    #expect(more.record().values == [1, 2, 3])
  }

  @Test("the variadic and sequence initializers keep the publishers in order")
  func initializers() {
    #expect(Publishers.MergeMany(Just(1), Just(2)).publishers == [Just(1), Just(2)])
    #expect(Publishers.MergeMany((1...3).map(Just.init)).publishers.map(\.output) == [1, 2, 3])
    #expect(Publishers.MergeMany(Just(1)) == Publishers.MergeMany([Just(1)]))
  }

  @Test("merging no publishers finishes at once")
  func empty() {
    let recorder = Publishers.MergeMany([PassthroughSubject<Int, Never>]()).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a failure is delivered once and cancels every other publisher")
  func failureCancelsOthers() {
    let inputs = (0..<3).map { _ in ManualPublisher<Int, TestError>() }
    let recorder = Publishers.MergeMany(inputs).record()
    inputs[1].send(completion: .failure(TestError(1)))
    inputs[2].send(completion: .failure(TestError(2)))
    #expect(recorder.receivedCompletion?.failure == TestError(1))
    #expect(recorder.completionCount == 1)
    #expect(inputs[0].isCancelled)
    #expect(!inputs[1].isCancelled)
    #expect(inputs[2].isCancelled)
  }

  @Test("demand: each publisher is asked for no more than the downstream asked for")
  func demand() {
    let inputs = (0..<3).map { _ in ManualPublisher<Int, Never>() }
    let recorder = Publishers.MergeMany(inputs).record(initialDemand: .max(2))
    #expect(inputs.map(\.requested) == [.max(2), .max(2), .max(2)])
    inputs[0].send(1)
    inputs[1].send(2)
    inputs[2].send(3)  // beyond the demand: waits
    #expect(recorder.values == [1, 2])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    #expect(inputs.map(\.requested) == [.max(2), .max(2), .max(2)])
  }

  @Test("cancel reaches every publisher and frees the pipeline")
  func cancel() {
    let inputs = (0..<3).map { _ in ManualPublisher<Int, Never>() }
    let probe = LeakProbe<Int, Never>()
    Publishers.MergeMany(inputs).subscribe(probe)
    inputs[0].send(1)
    probe.cancel()
    #expect(inputs.allSatisfy { $0.isCancelled })
    #expect(!inputs[1].send(2))
    #expect(probe.values == [1])
    #expect(probe.subscriptionObject == nil)
  }

  @Test("the pipeline is freed after completion")
  func freedAfterCompletion() {
    let inputs = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let probe = LeakProbe<Int, Never>()
    Publishers.MergeMany(inputs).subscribe(probe)
    for input in inputs { input.send(completion: .finished) }
    #expect(probe.completion.isFinished)
    #expect(probe.subscriptionObject == nil)
  }

  @Test(
    "stress: eight publishers driven from eight threads lose nothing, deliver serially, complete once"
  )
  func stressEightThreads() async {
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let subscriber = StressSubscriber<Int, Never>()
    Publishers.MergeMany(subjects).subscribe(subscriber)
    await concurrentPerform(8) { thread in
      for value in 0..<1000 { subjects[thread].send(thread * 10_000 + value) }
      subjects[thread].send(completion: .finished)
    }
    let values = subscriber.values
    #expect(values.count == 8000)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    for thread in 0..<8 {
      #expect(values.filter { $0 / 10_000 == thread } == (0..<1000).map { thread * 10_000 + $0 })
    }
  }

  @Test(
    "stress: with one value of demand at a time, eight threads lose nothing and no input is asked for more than the downstream"
  )
  func stressBoundedDemand() async {
    let inputs = (0..<8).map { _ in ManualPublisher<Int, Never>() }
    let subscriber = StressSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    Publishers.MergeMany(inputs).subscribe(subscriber)
    await concurrentPerform(8) { thread in
      for value in 0..<300 { inputs[thread].sendWhenDemanded(thread * 10_000 + value) }
      inputs[thread].send(completion: .finished)
    }
    let values = subscriber.values
    #expect(values.count == 2400)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 1)
    // The downstream asked for one value up front and one more per value: 2401 in all.
    for input in inputs {
      #expect(input.requested <= .max(2401))
    }
    for thread in 0..<8 {
      #expect(isIncreasing(values.filter { $0 / 10_000 == thread }))
    }
  }

  @Test(
    "stress: a thread cancels halfway through its sends while seven others keep sending: nothing sent after cancel returns is delivered, nothing twice"
  )
  func stressCancelWhileSending() async {
    for _ in 0..<3 {
      let cancels = Counter()
      let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
      let delivered = Counter()
      let cancelReturned = LockedBox(false)
      // Values delivered after cancel returned: at most the one a deliverer already had.
      let lateValues = Counter()
      let subscriber = OrderedStressSubscriber<Int, Never>(onValue: { _ in
        delivered.increment()
        if cancelReturned.withLock({ $0 }) { lateValues.increment() }
      })
      Publishers.MergeMany(subjects.map { $0.handleEvents(receiveCancel: { cancels.increment() }) })
        .subscribe(subscriber)
      // For each thread, the first of its values that it sent after cancel returned.
      let firstSentAfterCancel = LockedBox([Int](repeating: .max, count: 8))
      let started = LockedBox(0)
      await concurrentPerform(8) { thread in
        started.withLock { $0 += 1 }
        while started.withLock({ $0 }) < 8 { sched_yield() }
        guard thread == 7 else {
          // Threads 0...6 send until a hundred values after the cancel, so that they are
          // sending before, while and after thread 7 cancels (yielding after each value, so
          // that the delivering thread keeps up; 5,000 values at most).
          var sentAfterCancel = 0
          for value in 0..<5000 {
            if cancelReturned.withLock({ $0 }) {
              if sentAfterCancel == 0 { firstSentAfterCancel.withLock { $0[thread] = value } }
              sentAfterCancel += 1
              if sentAfterCancel > 100 { break }
            }
            subjects[thread].send(thread * 100_000 + value)
            sched_yield()
          }
          return
        }
        // Thread 7 starts once the others' values are being delivered, and cancels halfway.
        while delivered.value < 50 { sched_yield() }
        for value in 0..<100 {
          if value == 50 {
            subscriber.cancel()
            cancelReturned.withLock { $0 = true }
            firstSentAfterCancel.withLock { $0[7] = 50 }
          }
          subjects[7].send(7 * 100_000 + value)
        }
      }
      let values = subscriber.values
      let firstLate = firstSentAfterCancel.withLock { $0 }
      for thread in 0..<8 {
        let sent = values.filter { $0 / 100_000 == thread }.map { $0 % 100_000 }
        #expect(sent.allSatisfy { $0 < firstLate[thread] })
        #expect(isIncreasing(sent))
      }
      #expect(lateValues.value <= 1)
      #expect(Set(values).count == values.count)
      #expect(cancels.value == 8)
      #expect(subscriber.overlaps == 0)
      #expect(subscriber.completions == 0)
    }
  }

  @Test(
    "stress: cancelling from inside receive while eight threads keep sending delivers nothing after that value"
  )
  func stressCancelFromReceiveWhileSending() async {
    for _ in 0..<3 {
      let cancels = Counter()
      let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
      let delivered = Counter()
      let cancelled = LockedBox(false)
      // The subscriber, for its own receive to cancel; emptied at the end to break the cycle.
      let cancelTarget = LockedBox<OrderedStressSubscriber<Int, Never>?>(nil)
      let subscriber = OrderedStressSubscriber<Int, Never>(onValue: { _ in
        guard delivered.increment() == 200 else { return }
        cancelTarget.withLock { $0 }?.cancel()
        cancelled.withLock { $0 = true }
      })
      cancelTarget.withLock { $0 = subscriber }
      Publishers.MergeMany(subjects.map { $0.handleEvents(receiveCancel: { cancels.increment() }) })
        .subscribe(subscriber)
      let started = LockedBox(0)
      await concurrentPerform(8) { thread in
        started.withLock { $0 += 1 }
        while started.withLock({ $0 }) < 8 { sched_yield() }
        // Send until a hundred values after the cancel (yielding after each value, so that
        // the delivering thread keeps up; 5,000 values at most).
        var sentAfterCancel = 0
        for value in 0..<5000 {
          if cancelled.withLock({ $0 }) {
            sentAfterCancel += 1
            if sentAfterCancel > 100 { break }
          }
          subjects[thread].send(thread * 100_000 + value)
          sched_yield()
        }
      }
      cancelTarget.withLock { $0 = nil }
      let values = subscriber.values
      // Deliveries are serial, so the cancel ran on the only delivering thread: the value
      // that cancelled is the last one delivered, though the others kept sending.
      #expect(values.count == 200)
      #expect(delivered.value == 200)
      #expect(Set(values).count == values.count)
      for thread in 0..<8 {
        #expect(isIncreasing(values.filter { $0 / 100_000 == thread }))
      }
      #expect(cancels.value == 8)
      #expect(subscriber.overlaps == 0)
      #expect(subscriber.completions == 0)
    }
  }
}
