import CombineExCore
import CombineExTesting
import Testing

@Suite("removeDuplicates")
struct RemoveDuplicatesTests {
  @Test("removeDuplicates() drops consecutive equal elements only")
  func dropsConsecutiveDuplicates() {
    let recorder = [1, 1, 2, 2, 2, 3, 1, 1].publisher.eraseToAnyPublisher().removeDuplicates()
      .record()
    #expect(recorder.values == [1, 2, 3, 1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("removeDuplicates(by:) uses the predicate with the previous and the new element")
  func usesPredicate() {
    var calls: [[String]] = []
    let recorder = ["a", "A", "b", "B", "a"].publisher
      .removeDuplicates { previous, next in
        calls.append([previous, next])
        return previous.lowercased() == next.lowercased()
      }
      .record()
    #expect(recorder.values == ["a", "b", "a"])
    #expect(calls == [["a", "A"], ["A", "b"], ["b", "B"], ["B", "a"]])
  }

  @Test("each element is compared with the one received just before it, even if dropped")
  func comparesWithLastReceived() {
    // 1, 2, 3 are each "within 1" of the element before, so only the first survives, although
    // 3 is not within 1 of the last published element (1).
    let recorder = [1, 2, 3, 10].publisher
      .removeDuplicates { abs($0 - $1) <= 1 }
      .record()
    #expect(recorder.values == [1, 10])
  }

  @Test("the upstream's failure is passed on")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.removeDuplicates().record()
    subject.send(1)
    subject.send(1)
    subject.send(completion: .failure(TestError(1)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().removeDuplicates().record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a dropped duplicate gives its unit of demand back to the upstream")
  func duplicateGivesDemandBack() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.removeDuplicates().record(initialDemand: .max(2))
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    #expect(recorder.values == [1, 2])
  }

  @Test("honours demand: .none at first, then one value per request")
  func honoursDemand() {
    let recorder = [1, 1, 2, 3].publisher.eraseToAnyPublisher().removeDuplicates().record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("every subscription starts without a previous element")
  func freshStatePerSubscription() {
    let publisher = [1, 1, 2].publisher.eraseToAnyPublisher().removeDuplicates()
    #expect(publisher.record().values == [1, 2])
    #expect(publisher.record().values == [1, 2])
  }

  @Test("a value sent re-entrantly from the subscriber is compared with the current one")
  func reentrantSend() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.removeDuplicates().sink { value in
      received.append(value)
      if value == 1 {
        subject.send(1)  // a duplicate of the element being delivered: dropped
        subject.send(2)
      }
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [1, 2])
    withExtendedLifetime(cancellable) {}
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.removeDuplicates() }
  }
}

@Suite("tryRemoveDuplicates")
struct TryRemoveDuplicatesTests {
  @Test("drops the elements the predicate calls duplicates")
  func dropsDuplicates() {
    let recorder = [1, 1, 2, 2, 3].publisher.eraseToAnyPublisher().tryRemoveDuplicates(by: ==)
      .record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryRemoveDuplicates { previous, next in
        if next < 0 { throw TestError(next) }
        return previous == next
      }
      .record()
    subject.send(1)
    subject.send(-1)
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(-1))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("the first element is published without calling the predicate")
  func firstElementSkipsPredicate() {
    let recorder = [1].publisher
      .tryRemoveDuplicates { _, _ in throw TestError() }
      .record()
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(3)).tryRemoveDuplicates(by: ==).record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(3))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryRemoveDuplicates(by: ==).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: a dropped duplicate gives its demand back")
  func honoursDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.tryRemoveDuplicates(by: ==).record(initialDemand: .none)
    recorder.request(.max(1))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(4) == .none)
    #expect(upstream.send(4) == .max(1))
    #expect(recorder.values == [4])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryRemoveDuplicates(by: ==) }
  }
}
