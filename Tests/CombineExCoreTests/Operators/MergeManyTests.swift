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

  @Test("stress: cancelling while eight threads send stops delivery and cancels every publisher")
  func stressCancelWhileSending() async {
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let subscriber = StressSubscriber<Int, Never>()
    Publishers.MergeMany(subjects).subscribe(subscriber)
    await concurrentPerform(9) { thread in
      if thread == 8 {
        subscriber.cancelSubscription()
        return
      }
      for value in 0..<500 { subjects[thread].send(value) }
    }
    let countAfterCancel = subscriber.values.count
    for subject in subjects { subject.send(1) }
    #expect(subscriber.values.count == countAfterCancel)
    #expect(subscriber.overlaps == 0)
    #expect(subscriber.completions == 0)
  }
}
