import CombineExCore
import CombineExTesting
import Testing

@Suite("scan")
struct ScanTests {
  @Test("publishes every partial result")
  func publishesPartialResults() {
    let recorder = [1, 2, 3, 4].publisher.eraseToAnyPublisher().scan(0, +).record()
    #expect(recorder.values == [1, 3, 6, 10])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("the first call receives the initial result")
  func startsFromInitialResult() {
    let recorder = ["a", "b"].publisher.eraseToAnyPublisher().scan(">") { $0 + $1 }.record()
    #expect(recorder.values == [">a", ">ab"])
  }

  @Test("the upstream's failure is passed on after the partial results so far")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.scan(0, +).record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .failure(TestError(2)))
    #expect(recorder.values == [1, 3])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
  }

  @Test("an empty upstream finishes without values, not even the initial result")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().scan(0, +).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("demand passes straight through")
  func demandPassesThrough() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.scan(0, +).record(initialDemand: .none)
    #expect(upstream.requests.isEmpty)
    recorder.request(.max(1))
    #expect(upstream.send(5) == .none)
    recorder.request(.max(3))
    #expect(upstream.requests == [.max(1), .max(3)])
    #expect(recorder.values == [5])
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().scan(0, +).record(
      initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 3])
  }

  @Test("every subscription starts again from the initial result")
  func freshStatePerSubscription() {
    let publisher = [1, 2].publisher.eraseToAnyPublisher().scan(10, +)
    #expect(publisher.record().values == [11, 13])
    #expect(publisher.record().values == [11, 13])
  }

  @Test("a value sent re-entrantly from the subscriber is folded in at once")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.scan(0, +).sink { total in
      received.append(total)
      if total == 1 { subject.send(10) }
    }
    subject.send(1)
    subject.send(100)
    #expect(received == [1, 11, 111])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a cancel from inside the subscriber stops delivery")
  func reentrantCancel() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.scan(0, +).sink { total in
      received.append(total)
      if total >= 3 { cancellable?.cancel() }
    }
    for value in 1...5 { subject.send(value) }
    #expect(received == [1, 3])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.scan(0, +) }
  }
}

@Suite("tryScan")
struct TryScanTests {
  @Test("publishes every partial result")
  func publishesPartialResults() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryScan(0, +).record()
    #expect(recorder.values == [1, 3, 6])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryScan(0) { total, next in
        if total + next > 5 { throw TestError(total + next) }
        return total + next
      }
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    subject.send(4)
    #expect(recorder.values == [1, 3])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(6))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(9)).tryScan(0, +).record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(9))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryScan(0, +).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: .none at first, then one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryScan(0, +).record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 3, 6])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryScan(0, +) }
  }
}
