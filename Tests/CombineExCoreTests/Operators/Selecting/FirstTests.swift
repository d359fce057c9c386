import CombineExCore
import CombineExTesting
import Testing

@Suite("first()")
struct FirstTests {
  @Test("publishes the first element and finishes, cancelling the upstream")
  func publishesFirst() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder = subject.handleCancelForTest { cancelled = true }.first().record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("an empty upstream just finishes")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().first().record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure before any element is passed on")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.first().record()
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("requests unlimited from the upstream and holds the element until the subscriber asks")
  func demand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.first().record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
    #expect(upstream.send(4) == .none)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a subject sent to from inside the subscriber delivers nothing more")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.first().sink { value in
      received.append(value)
      subject.send(value + 1)
    }
    subject.send(1)
    #expect(received == [1])
    withExtendedLifetime(cancellable) {}
  }

  @Test("First is Equatable when its upstream is")
  func equatable() {
    #expect(Just(1).first() == Just(1).first())
    #expect(Just(1).first() != Just(2).first())
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    // The first element would end the pipeline, so check cancel on one that has none yet.
    expectCancellationRules { $0.filter { _ in false }.first() }
  }
}

@Suite("first(where:)")
struct FirstWhereTests {
  @Test("publishes the first match and finishes, cancelling the upstream and testing no further")
  func publishesFirstMatch() {
    var cancelled = false
    var tested: [Int] = []
    let recorder = [1, 2, 3, 4].publisher
      .handleCancelForTest { cancelled = true }
      .first { value in
        tested.append(value)
        return value > 2
      }
      .record()
    #expect(recorder.values == [3])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(tested == [1, 2, 3])
    #expect(cancelled)
  }

  @Test("finishes without a value when nothing matches, or the upstream is empty")
  func noMatch() {
    let none = [1, 2].publisher.eraseToAnyPublisher().first { $0 > 5 }.record()
    #expect(none.values.isEmpty)
    #expect(none.receivedCompletion.isFinished)
    let empty = Empty<Int, Never>().first { _ in true }.record()
    #expect(empty.values.isEmpty)
    #expect(empty.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(2)).first { _ in true }.record()
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("holds the match until the subscriber asks for it")
  func waitsForDemand() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().first { $0 == 2 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.first { $0 > 99 } }
  }
}

@Suite("tryFirst(where:)")
struct TryFirstWhereTests {
  @Test("publishes the first match and finishes")
  func publishesFirstMatch() {
    let recorder = [1, 5, 7].publisher.eraseToAnyPublisher().tryFirst { $0 > 2 }.record()
    #expect(recorder.values == [5])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryFirst { value in
        if value < 0 { throw TestError(value) }
        return false
      }
      .record()
    subject.send(1)
    subject.send(-2)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-2))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("finishes without a value when nothing matches, or the upstream is empty")
  func noMatch() {
    #expect(
      [1].publisher.eraseToAnyPublisher().tryFirst { $0 > 1 }.record().receivedCompletion.isFinished
    )
    let empty = Empty<Int, Never>().tryFirst { _ in true }.record()
    #expect(empty.values.isEmpty)
    #expect(empty.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(3)).tryFirst { _ in true }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(3))
  }

  @Test("holds the match until the subscriber asks for it")
  func waitsForDemand() {
    let recorder = [3].publisher.eraseToAnyPublisher().tryFirst { $0 == 3 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [3])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryFirst { $0 > 99 } }
  }
}
