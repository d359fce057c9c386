import CombineEx
import CombineExTesting
import Foundation
import Testing

private typealias Subject = PassthroughSubject<Int, ColdTestError>

@Suite("Aggregation: combineLatest and zip with many publishers (Publishers.Aggregate)")
struct AggregationTests {
  // MARK: combineLatest

  @Test("combineLatest with 9 others publishes every latest value once all have one")
  func combineLatestWithNine() {
    let subjects = (0..<10).map { CurrentValueSubject<Int, ColdTestError>($0) }
    let combined = subjects[0].combineLatest(
      subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6], subjects[7],
      subjects[8], subjects[9])
    let recorder = combined.map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7, $0.8, $0.9] }
      .record()
    #expect(recorder.values == [Array(0..<10)])
    subjects[4].send(40)
    #expect(recorder.values.last == [0, 1, 2, 3, 40, 5, 6, 7, 8, 9])
  }

  @Test("combineLatest with 4 to 8 others keeps the tuple's order and types")
  func combineLatestArities() {
    let a = Just(1)
    let s = Just("s")
    let b = Just(true)
    let four = a.combineLatest(s, b, a, s).record().values
    #expect(four.map { "\($0.0)\($0.1)\($0.2)\($0.3)\($0.4)" } == ["1strue1s"])
    #expect(a.combineLatest(a, a, a, a, a).record().values.count == 1)
    #expect(a.combineLatest(a, a, a, a, a, a).record().values.count == 1)
    #expect(a.combineLatest(a, a, a, a, a, a, a).record().values.count == 1)
    #expect(a.combineLatest(a, a, a, a, a, a, a, a).record().values.map(\.8) == [1])
  }

  @Test("nothing is published until every publisher has published")
  func waitsForEveryPublisher() {
    let subjects = (0..<5).map { _ in Subject() }
    let recorder = AnyPublisher<Int, ColdTestError>.combineLatest(
      subjects[0], subjects[1], subjects[2], subjects[3], subjects[4]
    ).map { $0.0 + $0.1 + $0.2 + $0.3 + $0.4 }.record()
    for index in 0..<4 { subjects[index].send(index + 1) }
    subjects[2].send(3)
    #expect(recorder.values.isEmpty)
    subjects[4].send(5)
    #expect(recorder.values == [15])
    subjects[2].send(13)
    subjects[3].send(14)
    #expect(recorder.values == [15, 25, 35])
  }

  @Test("the static combineLatest takes 2 to 10 publishers")
  func staticCombineLatest() {
    let j = Just(1)
    typealias P = Just<Int>
    #expect(P.combineLatest(j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j, j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j, j, j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j, j, j, j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j, j, j, j, j, j).record().values.count == 1)
    #expect(P.combineLatest(j, j, j, j, j, j, j, j, j).record().values.count == 1)
    let ten = P.combineLatest(j, j, j, j, j, j, j, j, j, Just("last"))
    #expect(
      type(of: ten)
        == Publishers.Aggregate<(Int, Int, Int, Int, Int, Int, Int, Int, Int, String), Never>.self)
    #expect(ten.record().values.map(\.9) == ["last"])
  }

  @Test("combineLatest finishes once all finished, or when one finishes without a value")
  func combineLatestCompletion() {
    let subjects = (0..<4).map { _ in Subject() }
    let recorder = AnyPublisher<Int, ColdTestError>.combineLatest(
      subjects[0], subjects[1], subjects[2], subjects[3]
    ).record()
    for subject in subjects { subject.send(1) }
    for subject in subjects.dropLast() { subject.send(completion: .finished) }
    #expect(recorder.receivedCompletion == nil)
    subjects[3].send(2)
    #expect(recorder.values.count == 2)
    subjects[3].send(completion: .finished)
    #expect(recorder.receivedCompletion == .finished)

    let probes = (0..<3).map { _ in SubscriptionProbe(Subject()) }
    let early = AnyPublisher<Int, ColdTestError>.combineLatest(
      probes[0].publisher, probes[1].publisher, probes[2].publisher
    ).record()
    probes[0].upstream.send(1)
    probes[1].upstream.send(completion: .finished)
    #expect(early.receivedCompletion == .finished)
    #expect(probes[0].cancels == 1)
    #expect(probes[2].cancels == 1)
  }

  @Test("the first failure cancels the others and is delivered at once; nothing follows")
  func failure() {
    let probes = (0..<5).map { _ in SubscriptionProbe(Subject()) }
    let recorder = probes[0].publisher.combineLatest(
      probes[1].publisher, probes[2].publisher, probes[3].publisher, probes[4].publisher
    ).record()
    for probe in probes { probe.upstream.send(1) }
    probes[2].upstream.send(completion: .failure(ColdTestError(2)))
    probes[3].upstream.send(completion: .failure(ColdTestError(3)))
    probes[4].upstream.send(5)
    #expect(recorder.values.count == 1)
    #expect(recorder.receivedCompletion == .failure(ColdTestError(2)))
    #expect(recorder.completionCount == 1)
    #expect(probes.enumerated().filter { $0.offset != 2 }.allSatisfy { $0.element.cancels == 1 })
  }

  @Test("demand: never more than requested; requests pass through to every publisher")
  func combineLatestDemand() {
    let subjects = (0..<4).map { _ in Subject() }
    let recorder = AnyPublisher<Int, ColdTestError>.combineLatest(
      subjects[0], subjects[1], subjects[2], subjects[3]
    ).record(initialDemand: .none)
    // No demand yet: the inputs were asked for nothing, so the subjects drop these.
    for subject in subjects { subject.send(0) }
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    for subject in subjects { subject.send(1) }
    #expect(recorder.values.map(\.0) == [1])
    subjects[0].send(2)
    #expect(recorder.values.count == 1)
    recorder.request(.max(1))
    subjects[1].send(5)
    #expect(recorder.values.map(\.1) == [1, 5])
  }

  @Test("cancel cancels every publisher and releases the subscriber")
  func cancel() {
    let probes = (0..<4).map { _ in SubscriptionProbe(Subject()) }
    weak var weakRecorder: TestSubscriber<(Int, Int, Int, Int, Int), ColdTestError>?
    do {
      let recorder = probes[0].publisher.combineLatest(
        probes[1].publisher, probes[2].publisher, probes[3].publisher, probes[0].publisher
      ).record()
      weakRecorder = recorder
      recorder.cancel()
      for probe in probes { probe.upstream.send(1) }
      #expect(recorder.values.isEmpty)
    }
    #expect(probes[1].cancels == 1)
    #expect(probes[0].cancels == 2)
    #expect(weakRecorder == nil)
  }

  @Test("re-entrant: a value sent from inside receive is delivered after it returns")
  func reentrantSend() {
    let subjects = (0..<4).map { _ in PassthroughSubject<Int, Never>() }
    var received: [Int] = []
    let cancellable = AnyPublisher<Int, Never>.combineLatest(
      subjects[0], subjects[1], subjects[2], subjects[3]
    ).sink { tuple in
      received.append(tuple.0)
      if tuple.0 == 1 { subjects[0].send(2) }
      received.append(-tuple.0)
    }
    subjects[1].send(0)
    subjects[2].send(0)
    subjects[3].send(0)
    subjects[0].send(1)
    #expect(received == [1, -1, 2, -2])
    cancellable.cancel()
  }

  @Test("outputs waiting for delivery keep their values when later values arrive (tuples)")
  func queuedTuplesKeepTheirValues() {
    let subjects = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
    var received: [[Int]] = []
    let cancellable = subjects[0].combineLatest(subjects[1], subjects[2], subjects[3], subjects[4])
      .sink { tuple in
        received.append([tuple.0, tuple.4])
        // Both wait, in order, until this delivery returns.
        if tuple.0 == 1 {
          subjects[0].send(2)
          subjects[4].send(5)
        }
      }
    for (index, subject) in subjects.enumerated() { subject.send(index) }
    subjects[0].send(1)
    #expect(received == [[0, 4], [1, 4], [2, 4], [2, 5]])
    cancellable.cancel()
  }

  @Test("outputs waiting for delivery keep their values when later values arrive (arrays)")
  func queuedArraysKeepTheirValues() {
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    var received: [[Int]] = []
    let cancellable = AnyPublisher<Int, Never>.combineLatest(array: subjects).sink { array in
      received.append(array)
      if array[0] == 1 {
        subjects[0].send(2)
        subjects[2].send(5)
      }
    }
    for (index, subject) in subjects.enumerated() { subject.send(index) }
    subjects[0].send(1)
    #expect(received == [[0, 1, 2], [1, 1, 2], [2, 1, 2], [2, 1, 5]])
    cancellable.cancel()
  }

  @Test("combineLatest keeps only each input's latest value, and none once cancelled")
  func combineLatestReleasesReplacedValues() {
    let counter = InstanceCounter()
    let subjects = (0..<5).map { _ in PassthroughSubject<Counted, Never>() }
    let tuples = CountingSubscriber<(Counted, Counted, Counted, Counted, Counted), Never>(
      initialDemand: .unlimited)
    subjects[0].combineLatest(subjects[1], subjects[2], subjects[3], subjects[4])
      .subscribe(tuples)
    let arrays = CountingSubscriber<[Counted], Never>(initialDemand: .unlimited)
    AnyPublisher<Counted, Never>.combineLatest(array: subjects).subscribe(arrays)
    for subject in subjects { subject.send(counter.make(0)) }
    #expect(counter.alive == 5)
    for index in 1...100 { subjects[index % 5].send(counter.make(index)) }
    #expect(tuples.count == 101)
    #expect(arrays.count == 101)
    #expect(counter.alive == 5, "each input's latest value, nothing more")
    tuples.cancel()
    arrays.cancel()
    #expect(counter.alive == 0)
  }

  // MARK: zip

  @Test("zip with 4 to 9 others pairs the i-th values, in order")
  func zipArities() {
    let s = [1, 2].publisher
    #expect(s.zip(s, s, s, s).record().values.map(\.4) == [1, 2])
    #expect(s.zip(s, s, s, s, s).record().values.count == 2)
    #expect(s.zip(s, s, s, s, s, s).record().values.count == 2)
    #expect(s.zip(s, s, s, s, s, s, s).record().values.count == 2)
    #expect(s.zip(s, s, s, s, s, s, s, s).record().values.count == 2)
    let nine = s.zip(s, s, s, s, s, s, s, s, ["a", "b", "c"].publisher)
    #expect(nine.record().values.map(\.9) == ["a", "b"])
  }

  @Test("zip buffers values until every publisher has one, and until demand arrives")
  func zipBuffersUntilDemand() {
    let subjects = (0..<5).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = subjects[0].zip(subjects[1], subjects[2], subjects[3], subjects[4])
      .map { $0.0 + $0.1 + $0.2 + $0.3 + $0.4 }
      .record(initialDemand: .max(2))
    for round in 1...2 {
      for subject in subjects { subject.send(round) }
    }
    #expect(recorder.values == [5, 10])
    // No demand left: the inputs were asked for two values each, so they send no more.
    for subject in subjects { subject.send(3) }
    #expect(recorder.values == [5, 10])
    recorder.request(.max(1))
    for subject in subjects { subject.send(4) }
    #expect(recorder.values == [5, 10, 20])
  }

  @Test("zip finishes once a finished publisher's values are used up")
  func zipCompletion() {
    let subjects = (0..<5).map { _ in Subject() }
    let recorder = subjects[0].zip(subjects[1], subjects[2], subjects[3], subjects[4]).record()
    subjects[0].send(1)
    subjects[0].send(2)
    subjects[0].send(completion: .finished)
    #expect(recorder.receivedCompletion == nil)
    for subject in subjects.dropFirst() { subject.send(1) }
    #expect(recorder.receivedCompletion == nil)
    for subject in subjects.dropFirst() { subject.send(2) }
    #expect(recorder.values.count == 2)
    #expect(recorder.receivedCompletion == .finished)
  }

  // MARK: Arrays

  @Test("combineLatest(array:) publishes arrays of the latest values")
  func combineLatestArray() {
    let subjects = (0..<3).map { CurrentValueSubject<Int, Never>($0) }
    let combined = AnyPublisher<Int, Never>.combineLatest(array: subjects)
    #expect(type(of: combined) == Publishers.Aggregate<[Int], Never>.self)
    let recorder = combined.record()
    subjects[1].send(10)
    #expect(recorder.values == [[0, 1, 2], [0, 10, 2]])
  }

  @Test("zip(array:) publishes arrays of the i-th values")
  func zipArray() {
    let recorder = AnyPublisher<Int, Never>.zip(array: [[1, 2].publisher, [3, 4, 5].publisher])
      .record()
    #expect(recorder.values == [[1, 3], [2, 4]])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an empty array finishes at once, without values")
  func emptyArrays() {
    let none: [Subject] = []
    let latest = AnyPublisher<Int, ColdTestError>.combineLatest(array: none).record()
    let zipped = AnyPublisher<Int, ColdTestError>.zip(array: none).record()
    #expect(latest.values.isEmpty)
    #expect(latest.receivedCompletion == .finished)
    #expect(zipped.values.isEmpty)
    #expect(zipped.receivedCompletion == .finished)
  }

  // MARK: Publishers.Aggregate itself

  @Test("Publishers.Aggregate runs the builder per subscription, with the inputs in order")
  func aggregateInit() {
    let builds = RunCounter()
    let sum = Publishers.Aggregate<String, Never>(strategy: .zip) { aggregator in
      builds.increment()
      aggregator.add(["a", "b"].publisher)
      aggregator.add([1, 2].publisher)
    } aggregationBlock: { values in
      "\(values[0] as! String)\(values[1] as! Int)"
    }
    #expect(builds.value == 0)
    #expect(sum.record().values == ["a1", "b2"])
    #expect(sum.record().values == ["a1", "b2"])
    #expect(builds.value == 2)
  }

  @Test("adding an input after the builder returned is an API violation")
  func addAfterBuilder() async {
    await #expect(processExitsWith: .failure) {
      final class Keeper: @unchecked Sendable {
        var aggregator: (any AggregatePublisherAggregator<Never>)?
      }
      let keeper = Keeper()
      let aggregate = Publishers.Aggregate<[Any], Never>(strategy: .combineLatest) {
        keeper.aggregator = $0
        $0.add(Just(1))
      } aggregationBlock: {
        $0
      }
      _ = aggregate.sink { _ in }
      keeper.aggregator?.add(Just(2))
    }
  }

  // MARK: Coldness

  @Test("without a type context the result is a Publishers.Aggregate, not cold")
  func notColdByDefault() {
    let d = Deferred { Just(1) }
    let combined = d.combineLatest(d, d, d, d)
    #expect(type(of: combined) == Publishers.Aggregate<(Int, Int, Int, Int, Int), Never>.self)
    #expect(!isCold(combined))
  }

  @Test("on cold publishers the cold forms erase to AnyDeferredPublisher, one run per subscription")
  func coldForms() {
    let runs = RunCounter()
    let d = countingDeferred([1], counter: runs)
    let latest: AnyDeferredPublisher<(Int, Int, Int, Int, Int), Never> = d.combineLatest(d, d, d, d)
      .eraseToAnyDeferredPublisher()
    let zipped: AnyDeferredPublisher<(Int, Int, Int, Int, Int, Int), Never> = d.zip(d, d, d, d, d)
      .eraseToAnyDeferredPublisher()
    let staticForm: AnyDeferredPublisher<(Int, Int), Never> = AnyDeferredPublisher<Int, Never>
      .combineLatest(d, d).eraseToAnyDeferredPublisher()
    let arrays: AnyDeferredPublisher<[Int], Never> = AnyDeferredPublisher<Int, Never>
      .zip(array: [d, d, d]).eraseToAnyDeferredPublisher()
    let latestArrays: AnyDeferredPublisher<[Int], Never> = AnyDeferredPublisher<Int, Never>
      .combineLatest(array: [d, d]).eraseToAnyDeferredPublisher()
    #expect(runs.value == 0)
    #expect(latest.record().values.count == 1)
    #expect(latest.record().values.count == 1)
    #expect(zipped.record().values.count == 1)
    #expect(staticForm.record().values.count == 1)
    #expect(arrays.record().values == [[1, 1, 1]])
    #expect(latestArrays.record().values == [[1, 1]])
    #expect(runs.value == 5 * 2 + 6 + 2 + 3 + 2)
  }

  // MARK: Futures

  @Test("DeferredFuture.combineLatest(array:) is the Publisher form unless a future is needed")
  func futureArray() {
    let futures = [DeferredFuture<Int, Never>.just(1), .just(2)]
    let asPublisher = DeferredFuture<Int, Never>.combineLatest(array: futures)
    #expect(type(of: asPublisher) == Publishers.Aggregate<[Int], Never>.self)
    let asFuture: DeferredFuture<[Int], Never> = DeferredFuture<Int, Never>.combineLatest(
      array: futures)
    #expect(asFuture.record().values == [[1, 2]])
  }

  // MARK: Stress

  // MARK: Releasing zipped values (rule 3)

  @Test("zip(array:) releases each zipped value while later values of its input still wait")
  func zipArrayReleasesZippedValues() {
    let counter = InstanceCounter()
    let ahead = PassthroughSubject<Counted, Never>()
    let behind = PassthroughSubject<Counted, Never>()
    let zipped = AnyPublisher<Counted, Never>.zip(array: [
      ahead.eraseToAnyPublisher(), behind.eraseToAnyPublisher(),
    ])
    let subscriber = CountingSubscriber<[Counted], Never>(initialDemand: .unlimited)
    zipped.subscribe(subscriber)
    // `ahead` always has one value waiting when a tuple goes out, so its queue never drains.
    ahead.send(counter.make(0))
    for index in 0..<10_000 {
      ahead.send(counter.make(index + 1))
      behind.send(counter.make(index))
    }
    #expect(subscriber.count == 10_000)
    #expect(counter.alive == 1, "only the value waiting for a partner is alive")
    subscriber.cancel()
    #expect(counter.alive == 0)
  }

  @Test("zip with 4 others releases each zipped value while later values of an input wait")
  func instanceZipReleasesZippedValues() {
    let counter = InstanceCounter()
    let subjects = (0..<5).map { _ in PassthroughSubject<Counted, Never>() }
    let subscriber = CountingSubscriber<(Counted, Counted, Counted, Counted, Counted), Never>(
      initialDemand: .unlimited)
    subjects[0].zip(subjects[1], subjects[2], subjects[3], subjects[4]).subscribe(subscriber)
    // The first input stays one value ahead, so its queue never drains.
    subjects[0].send(counter.make(0))
    for index in 0..<2_000 {
      subjects[0].send(counter.make(index + 1))
      for subject in subjects.dropFirst() { subject.send(counter.make(index)) }
    }
    #expect(subscriber.count == 2_000)
    #expect(counter.alive == 1, "only the value waiting for partners is alive")
    subscriber.cancel()
    #expect(counter.alive == 0)
  }

  @Test("stress: combineLatest of 8 publishers, each sending from its own thread")
  func stressCombineLatest() async {
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let inside = LockedBox((now: 0, most: 0))
    let recorder = AnyPublisher<Int, Never>.combineLatest(array: subjects)
      .handleValue { _ in
        inside.withLock {
          $0.now += 1; $0.most = max($0.most, $0.now)
        }
        inside.withLock { $0.now -= 1 }
      }
      .record(initialDemand: .max(1))
    await concurrentPerform(8) { thread in
      for value in 1...300 {
        subjects[thread].send(value)
        if value.isMultiple(of: 3) { recorder.request(.max(1)) }
      }
    }
    let values = recorder.values
    #expect(values.count <= 1 + 8 * 100)
    #expect(inside.withLock { $0.most } == 1)
    // Each publisher's values are seen in the order it sent them.
    for index in 0..<8 {
      let seen = values.map { $0[index] }
      #expect(seen == seen.sorted())
    }
    for subject in subjects { subject.send(completion: .finished) }
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("stress: combineLatest of 10 publishers (tuples), each sending from its own thread")
  func stressCombineLatestOfTen() async {
    let s = (0..<10).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = s[0].combineLatest(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9])
      .map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7, $0.8, $0.9] }
      .record()
    await concurrentPerform(10) { thread in
      for value in 1...300 { s[thread].send(value) }
    }
    let values = recorder.values
    #expect(values.count <= 10 * 300)
    // Each output is a snapshot: each publisher's values are seen in the order it sent them,
    // and the last output holds every publisher's last value.
    for index in 0..<10 {
      let seen = values.map { $0[index] }
      #expect(seen == seen.sorted())
    }
    #expect(values.last == Array(repeating: 300, count: 10))
  }

  @Test("stress: zip of 10 publishers (tuples), each sending from its own thread, loses nothing")
  func stressZipOfTen() async {
    let s = (0..<10).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = s[0].zip(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9])
      .map { [$0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7, $0.8, $0.9] }
      .record()
    await concurrentPerform(10) { thread in
      for value in 0..<300 { s[thread].send(value) }
      s[thread].send(completion: .finished)
    }
    #expect(recorder.values == (0..<300).map { Array(repeating: $0, count: 10) })
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("stress: zip of 8 publishers, each sending from its own thread, loses nothing")
  func stressZip() async {
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = AnyPublisher<Int, Never>.zip(array: subjects).record()
    await concurrentPerform(8) { thread in
      for value in 0..<500 { subjects[thread].send(value) }
      subjects[thread].send(completion: .finished)
    }
    #expect(recorder.values == (0..<500).map { Array(repeating: $0, count: 8) })
    #expect(recorder.receivedCompletion == .finished)
  }
}
