import CombineExCore
import CombineExTesting
import Testing

@Suite("allSatisfy")
struct AllSatisfyTests {
  @Test("publishes true when every element passes")
  func allPass() {
    let recorder = [2, 4, 6].publisher.eraseToAnyPublisher().allSatisfy { $0.isMultiple(of: 2) }
      .record()
    #expect(recorder.values == [true])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("publishes false on the first failing element, cancelling the upstream")
  func finishesEarlyWithFalse() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    var tested: [Int] = []
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .allSatisfy { value in
        tested.append(value)
        return value > 0
      }
      .record()
    subject.send(1)
    subject.send(-1)
    subject.send(2)
    #expect(recorder.values == [false])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(tested == [1, -1])
    #expect(cancelled)
  }

  @Test("an empty upstream publishes true")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().allSatisfy { _ in false }.record()
    #expect(recorder.values == [true])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the upstream's failure is passed on without a value")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.allSatisfy { _ in true }.record()
    subject.send(1)
    subject.send(completion: .failure(TestError(6)))
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(TestError(6)))
  }

  @Test("requests unlimited elements and holds the answer until the subscriber asks")
  func demand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.allSatisfy { $0 > 0 }.record(initialDemand: .none)
    #expect(upstream.requests == [.unlimited])
    upstream.send(0)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [false])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.allSatisfy { _ in true } }
  }
}

@Suite("tryAllSatisfy")
struct TryAllSatisfyTests {
  @Test("publishes true when every element passes, false at the first that does not")
  func answers() {
    #expect(
      [1, 2].publisher.eraseToAnyPublisher().tryAllSatisfy { $0 > 0 }.record().values == [true])
    #expect(
      [1, -2, 3].publisher.eraseToAnyPublisher().tryAllSatisfy { $0 > 0 }.record().values == [false]
    )
  }

  @Test("finishing early with false cancels the upstream")
  func finishesEarly() {
    var cancelled = false
    let recorder = [1, -2, 3].publisher
      .handleCancelForTest { cancelled = true }
      .tryAllSatisfy { $0 > 0 }
      .record()
    #expect(recorder.values == [false])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(cancelled)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryAllSatisfy { value in
        if value == 0 { throw TestError(0) }
        return true
      }
      .record()
    subject.send(1)
    subject.send(0)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(0))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("an empty upstream publishes true")
  func emptyUpstream() {
    #expect(Empty<Int, Never>().tryAllSatisfy { _ in false }.record().values == [true])
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(1)).tryAllSatisfy { _ in true }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(1))
  }

  @Test("waits for demand before publishing the answer")
  func waitsForDemand() {
    let recorder = [1].publisher.eraseToAnyPublisher().tryAllSatisfy { $0 > 0 }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [true])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryAllSatisfy { _ in true } }
  }
}
