import CombineExCore
import CombineExTesting
import Testing

@Suite("drop(while:)")
struct DropWhileTests {
  @Test("drops leading elements while the predicate holds, then passes everything")
  func dropsLeadingElements() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.drop(while: { $0 < 3 }).record()
    for value in [1, 2, 3, 1, 4] { subject.send(value) }
    subject.send(completion: .finished)
    #expect(recorder.values == [3, 1, 4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("stops calling the predicate once it has returned false")
  func predicateNotCalledAfterFalse() {
    let subject = PassthroughSubject<Int, Never>()
    var calls: [Int] = []
    let recorder = subject.drop(while: {
      calls.append($0)
      return $0 < 2
    }).record()
    for value in [1, 2, 3, 0] { subject.send(value) }
    #expect(calls == [1, 2])
    #expect(recorder.values == [2, 3, 0])
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.drop(while: { $0 < 0 }).record()
    subject.send(-1)
    subject.send(completion: .failure(TestError(4)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(4)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().drop(while: { _ in true }).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a dropped element gives its demand back to the upstream")
  func droppedElementReturnsDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.drop(while: { $0 < 0 }).record(initialDemand: .max(1))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(-1) == .max(1))
    #expect(upstream.send(5) == .none)
    #expect(recorder.values == [5])
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = Publishers.DropWhile(
      upstream: [1, 2, 3, 4].publisher.eraseToAnyPublisher(), predicate: { $0 < 2 }
    )
    .record(initialDemand: .max(1))
    #expect(recorder.values == [2])
    recorder.request(.max(2))
    #expect(recorder.values == [2, 3, 4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("no demand, no values")
  func noDemand() {
    let recorder = Publishers.DropWhile(
      upstream: [1, 2, 3].publisher.eraseToAnyPublisher(), predicate: { $0 < 2 }
    )
    .record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel reaches the upstream and nothing arrives after it")
  func cancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.drop(while: { $0 < 0 }).record()
    upstream.send(1)
    recorder.cancel()
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(upstream.cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.drop(while: { _ in owner.values.isEmpty })
        .sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a sequence publisher fuses into a Publishers.Sequence of DropWhileSequence")
  func sequenceFusion() {
    let fused: Publishers.Sequence<DropWhileSequence<[Int]>, Never> = [1, 2, 3, 1].publisher
      .drop(while: { $0 < 2 })
    #expect(fused.record().values == [2, 3, 1])
  }
}

@Suite("tryDrop(while:)")
struct TryDropWhileTests {
  @Test("drops leading elements while the predicate holds")
  func dropsLeadingElements() {
    let recorder = [1, 2, 3, 1].publisher.eraseToAnyPublisher().tryDrop(while: { $0 < 2 }).record()
    #expect(recorder.values == [2, 3, 1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.tryDrop(while: { value in
      if value == 2 { throw TestError(2) }
      return true
    }).record()
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    #expect(upstream.cancels == 1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
    #expect(recorder.completionCount == 1)
  }

  @Test("the predicate no longer runs, so cannot throw, once it has returned false")
  func noThrowAfterFalse() {
    let recorder = [1, 5, 2].publisher.eraseToAnyPublisher().tryDrop(while: { value in
      if value == 2 { throw TestError(2) }
      return value < 5
    }).record()
    #expect(recorder.values == [5, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(9)).tryDrop(while: { _ in true })
      .record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(9))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryDrop(while: { _ in true }).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [0, 1, 2, 3].publisher.eraseToAnyPublisher().tryDrop(while: { $0 == 0 })
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.tryDrop(while: { _ in owner.values.isEmpty })
        .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a sequence publisher is not fused: the result is a Publishers.TryDropWhile")
  func resultType() {
    let publisher: Publishers.TryDropWhile<Publishers.Sequence<[Int], Never>> = [3, 4].publisher
      .tryDrop(while: { $0 < 4 })
    #expect(publisher.upstream.sequence == [3, 4])
    #expect(publisher.record().values == [4])
  }
}
