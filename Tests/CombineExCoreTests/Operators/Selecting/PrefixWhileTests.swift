import CombineExCore
import CombineExTesting
import Testing

@Suite("prefix(while:)")
struct PrefixWhileTests {
  @Test("republishes elements while the predicate holds, then finishes")
  func republishesWhileTrue() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.prefix(while: { $0 < 3 }).record()
    for value in [0, 1, 2, 3, 0] { subject.send(value) }
    #expect(recorder.values == [0, 1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
  }

  @Test("the first failing element cancels the upstream")
  func falseCancelsUpstream() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.prefix(while: { $0 > 0 }).record()
    upstream.send(1)
    upstream.send(0)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(upstream.cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.completionCount == 1)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.prefix(while: { _ in true }).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(5)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(5)))
  }

  @Test("an upstream that finishes first ends the stream")
  func upstreamFinishes() {
    let recorder = Publishers.PrefixWhile(
      upstream: [1, 2].publisher.eraseToAnyPublisher(), predicate: { _ in true }
    )
    .record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().prefix(while: { _ in true }).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = Publishers.PrefixWhile(
      upstream: [1, 2, 3, 9].publisher.eraseToAnyPublisher(), predicate: { $0 < 5 }
    )
    .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("no demand, no values")
  func noDemand() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.prefix(while: { _ in true }).record(initialDemand: .none)
    #expect(upstream.requests.isEmpty)
    #expect(recorder.values.isEmpty)
  }

  @Test("cancel reaches the upstream and nothing arrives after it")
  func cancel() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.prefix(while: { _ in true }).record()
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
      cancellable = subject.prefix(while: { _ in owner.values.count < 10 })
        .sink { owner.values.append($0) }
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("ending early frees the pipeline")
  func endingFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.prefix(while: { _ in owner.values.isEmpty })
        .sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner != nil)
    subject.send(2)
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("a value sent from inside the subscriber can end the stream")
  func reentrantSendEnds() {
    let subject = PassthroughSubject<Int, Never>()
    var values: [Int] = []
    var completions = 0
    let cancellable = subject.prefix(while: { $0 > 0 }).sink(
      receiveCompletion: { _ in completions += 1 },
      receiveValue: { value in
        values.append(value)
        subject.send(0)
        subject.send(5)
      })
    subject.send(1)
    #expect(values == [1])
    #expect(completions == 1)
    withExtendedLifetime(cancellable) {}
  }

  @Test("a sequence publisher fuses into a Publishers.Sequence of an array")
  func sequenceFusion() {
    let fused: Publishers.Sequence<[Int], Never> = (1...5).publisher.prefix(while: { $0 < 3 })
    #expect(fused.sequence == [1, 2])
    #expect(fused.record().values == [1, 2])
  }
}

@Suite("tryPrefix(while:)")
struct TryPrefixWhileTests {
  @Test("republishes elements while the predicate holds, then finishes")
  func republishesWhileTrue() {
    let recorder = [1, 2, 3, 1].publisher.eraseToAnyPublisher().tryPrefix(while: { $0 < 3 })
      .record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.tryPrefix(while: { value in
      if value < 0 { throw TestError(value) }
      return true
    }).record()
    upstream.send(1)
    upstream.send(-1)
    upstream.send(2)
    #expect(upstream.cancels == 1)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-1))
    #expect(recorder.completionCount == 1)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(3)).tryPrefix(while: { _ in true })
      .record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(3))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryPrefix(while: { _ in true }).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryPrefix(while: { _ in true })
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
      cancellable = subject.tryPrefix(while: { _ in owner.values.count < 10 })
        .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a sequence publisher is not fused: the result is a Publishers.TryPrefixWhile")
  func resultType() {
    let publisher: Publishers.TryPrefixWhile<Publishers.Sequence<[Int], Never>> = [1, 2].publisher
      .tryPrefix(while: { $0 < 2 })
    #expect(publisher.upstream.sequence == [1, 2])
    #expect(publisher.record().values == [1])
  }
}
