import CombineExCore
import CombineExTesting
import Testing

@Suite("contains")
struct ContainsTests {
  @Test("publishes true on the first equal element, cancelling the upstream")
  func findsElement() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder = subject.handleCancelForTest { cancelled = true }.contains(2).record()
    subject.send(1)
    #expect(recorder.values.isEmpty)
    subject.send(2)
    #expect(recorder.values == [true])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(cancelled)
  }

  @Test("publishes false when the upstream finishes without the element")
  func missingElement() {
    let recorder = [1, 3].publisher.eraseToAnyPublisher().contains(2).record()
    #expect(recorder.values == [false])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream publishes false")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().contains(1).record()
    #expect(recorder.values == [false])
  }

  @Test("the upstream's failure is passed on without a value")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.contains(2).record()
    subject.send(1)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("requests unlimited elements and holds the answer until the subscriber asks")
  func demand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.contains(2).record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
    upstream.send(2)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [true])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("Contains is Equatable when its upstream is")
  func equatable() {
    #expect(Just(1).contains(1) == Just(1).contains(1))
    #expect(Just(1).contains(1) != Just(1).contains(2))
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.contains(99) }
  }
}

@Suite("contains(where:)")
struct ContainsWhereTests {
  @Test("publishes true on the first match, cancelling the upstream and testing no further")
  func findsMatch() {
    var cancelled = false
    var tested: [Int] = []
    let recorder = [1, 4, 5, 6].publisher
      .handleCancelForTest { cancelled = true }
      .contains { value in
        tested.append(value)
        return value.isMultiple(of: 2)
      }
      .record()
    #expect(recorder.values == [true])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(tested == [1, 4])
    #expect(cancelled)
  }

  @Test("publishes false when the upstream finishes without a match, or is empty")
  func noMatch() {
    #expect([1, 3].publisher.eraseToAnyPublisher().contains { $0 > 5 }.record().values == [false])
    #expect(Empty<Int, Never>().contains { _ in true }.record().values == [false])
  }

  @Test("the upstream's failure is passed on without a value")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(4)).contains { _ in true }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(4)))
  }

  @Test("waits for demand before publishing the answer")
  func waitsForDemand() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().contains { $0 == 2 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [true])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.contains { $0 > 99 } }
  }
}

@Suite("tryContains(where:)")
struct TryContainsWhereTests {
  @Test("publishes true on the first match and false if there is none")
  func answers() {
    #expect(
      [1, 2].publisher.eraseToAnyPublisher().tryContains { $0 == 2 }.record().values == [true])
    #expect(
      [1, 2].publisher.eraseToAnyPublisher().tryContains { $0 == 3 }.record().values == [false])
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryContains { value in
        if value < 0 { throw TestError(value) }
        return false
      }
      .record()
    subject.send(1)
    subject.send(-3)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-3))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("an empty upstream publishes false")
  func emptyUpstream() {
    #expect(Empty<Int, Never>().tryContains { _ in true }.record().values == [false])
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(8)).tryContains { _ in true }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(8))
  }

  @Test("waits for demand before publishing the answer")
  func waitsForDemand() {
    let recorder = [1].publisher.eraseToAnyPublisher().tryContains { $0 == 1 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [true])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryContains { $0 > 99 } }
  }
}
