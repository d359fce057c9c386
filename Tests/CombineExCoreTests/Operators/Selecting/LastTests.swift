import CombineExCore
import CombineExTesting
import Testing

@Suite("last()")
struct LastTests {
  @Test("publishes the last element when the upstream finishes")
  func publishesLast() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.last().record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values.isEmpty)
    subject.send(completion: .finished)
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream just finishes")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().last().record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on without a value")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.last().record()
    subject.send(1)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("requests unlimited elements and waits for demand before publishing")
  func demand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.last().record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("Last is Equatable when its upstream is")
  func equatable() {
    #expect(Just(1).last() == Just(1).last())
    #expect(Just(1).last() != Just(2).last())
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.last() }
  }
}

@Suite("last(where:)")
struct LastWhereTests {
  @Test("publishes the last match when the upstream finishes")
  func publishesLastMatch() {
    let recorder = [1, 2, 3, 4, 5].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }
      .record()
    #expect(recorder.values == [4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("finishes without a value when nothing matches, or the upstream is empty")
  func noMatch() {
    let none = [1, 3].publisher.eraseToAnyPublisher().last { $0.isMultiple(of: 2) }.record()
    #expect(none.values.isEmpty)
    #expect(none.receivedCompletion.isFinished)
    #expect(Empty<Int, Never>().last { _ in true }.record().values.isEmpty)
  }

  @Test("the upstream's failure is passed on without a value")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.last { _ in true }.record()
    subject.send(1)
    subject.send(completion: .failure(TestError(3)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
  }

  @Test("waits for demand before publishing")
  func waitsForDemand() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().last { $0 < 2 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.last { _ in true } }
  }
}

@Suite("tryLast(where:)")
struct TryLastWhereTests {
  @Test("publishes the last match when the upstream finishes")
  func publishesLastMatch() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryLast { $0 < 3 }.record()
    #expect(recorder.values == [2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryLast { value in
        if value < 0 { throw TestError(value) }
        return true
      }
      .record()
    subject.send(1)
    subject.send(-1)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-1))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("an empty upstream just finishes")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryLast { _ in true }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(5)).tryLast { _ in true }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(5))
  }

  @Test("waits for demand before publishing")
  func waitsForDemand() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().tryLast { _ in true }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [2])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryLast { _ in true } }
  }
}
