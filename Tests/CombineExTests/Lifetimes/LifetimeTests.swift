import CombineEx
import CombineExTesting
import Testing

@Suite("Lifetime and prefix(during:)")
struct LifetimeTests {
  @Test("a lifetime ends when its token is deinitialized, and runs its observers once")
  func endsWithToken() {
    var token: Lifetime.Token? = Lifetime.Token()
    let lifetime = token!.lifetime
    var ended = 0
    lifetime.observeEnded { ended += 1 }
    #expect(!lifetime.hasEnded)
    token = nil
    #expect(lifetime.hasEnded)
    #expect(ended == 1)
  }

  @Test("observing an ended lifetime runs the observer at once")
  func observeEndedLifetime() {
    var ran = false
    let cancellable = Lifetime.ended.observeEnded { ran = true }
    #expect(ran)
    #expect(cancellable == nil)
  }

  @Test("a cancelled observer is not run")
  func cancelledObserver() {
    var (lifetime, token): (Lifetime, Lifetime.Token?) = Lifetime.make()
    var ran = false
    let observation = lifetime.observeEnded { ran = true }
    observation?.cancel()
    token = nil
    #expect(!ran)
    withExtendedLifetime(token) {}
  }

  @Test("prefix(during:) republishes until the lifetime ends, then finishes at once")
  func prefixDuringFinishesAtOnce() {
    var token: Lifetime.Token? = Lifetime.Token()
    let subject = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(subject)
    let recorder = probe.publisher.prefix(during: token!.lifetime).record()
    subject.send(1)
    token = nil
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(probe.cancels == 1)
    subject.send(2)
    #expect(recorder.values == [1])
  }

  @Test("prefix(during:) on an ended lifetime finishes as soon as it is subscribed")
  func prefixDuringEndedLifetime() {
    let recorder = PassthroughSubject<Int, Never>().prefix(during: .ended).record()
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.values.isEmpty)
  }

  @Test("a lifetime that ends during a delivery finishes right after that delivery")
  func endsDuringDelivery() {
    var token: Lifetime.Token? = Lifetime.Token()
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let cancellable = subject.prefix(during: token!.lifetime).sink(
      receiveCompletion: { _ in log.append("finished") },
      receiveValue: { value in
        log.append("value \(value)")
        token = nil
        log.append("token released")
      })
    subject.send(1)
    subject.send(2)
    #expect(log == ["value 1", "token released", "finished"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a cancelled observation removes its observer from the lifetime")
  func cancelledObservationIsRemoved() {
    let token = Lifetime.Token()
    let observation = token.lifetime.observeEnded {}
    #expect(token.lifetime.observerCount == 1)
    observation?.cancel()
    #expect(token.lifetime.observerCount == 0)
  }

  @Test("prefix(during:) removes its lifetime observer when cancelled")
  func prefixDuringRemovesObserverOnCancel() {
    let token = Lifetime.Token()
    let subject = PassthroughSubject<Int, Never>()
    let first = subject.prefix(during: token.lifetime).sink { _ in }
    #expect(token.lifetime.observerCount == 1)
    first.cancel()
    #expect(token.lifetime.observerCount == 0)
    for _ in 0..<1_000 {
      subject.prefix(during: token.lifetime).sink { _ in }.cancel()
    }
    #expect(token.lifetime.observerCount == 0)
  }

  @Test("prefix(during:) removes its lifetime observer when the upstream finishes or fails")
  func prefixDuringRemovesObserverOnCompletion() {
    let token = Lifetime.Token()
    var cancellables: [AnyCancellable] = []
    for value in 0..<1_000 {
      Just(value).prefix(during: token.lifetime).sink { _ in }.store(in: &cancellables)
    }
    #expect(token.lifetime.observerCount == 0)
    let subject = PassthroughSubject<Int, TestFailure>()
    let finishing = PassthroughSubject<Int, Never>()
    let failed = subject.prefix(during: token.lifetime).record()
    let finished = finishing.prefix(during: token.lifetime).record()
    #expect(token.lifetime.observerCount == 2)
    subject.send(completion: .failure(TestFailure()))
    finishing.send(completion: .finished)
    #expect(token.lifetime.observerCount == 0)
    #expect(failed.receivedCompletion == .failure(TestFailure()))
    #expect(finished.receivedCompletion == .finished)
  }

  @Test("a long-lived lifetime does not accumulate observers from finished subscriptions")
  func longLivedLifetimeStaysEmpty() {
    let token = Lifetime.Token()
    let subject = PassthroughSubject<Int, Never>()
    let probe = SubscriptionProbe(subject)
    let recorders = (0..<100).map { _ in probe.publisher.prefix(during: token.lifetime).record() }
    #expect(token.lifetime.observerCount == 100)
    for recorder in recorders.prefix(50) { recorder.cancel() }
    #expect(token.lifetime.observerCount == 50)
    subject.send(completion: .finished)
    #expect(token.lifetime.observerCount == 0)
    #expect(probe.cancels == 50)
    #expect(recorders.suffix(50).allSatisfy { $0.receivedCompletion == .finished })
  }

  @Test("the upstream's completion and cancel pass through prefix(during:)")
  func passesCompletionAndCancel() {
    let token = Lifetime.Token()
    let subject = PassthroughSubject<Int, TestFailure>()
    let recorder = subject.prefix(during: token.lifetime).record()
    subject.send(completion: .failure(TestFailure()))
    #expect(recorder.receivedCompletion == .failure(TestFailure()))

    let probe = SubscriptionProbe(PassthroughSubject<Int, Never>())
    let cancelled = probe.publisher.prefix(during: token.lifetime).record()
    cancelled.cancel()
    #expect(probe.cancels == 1)
  }
}

struct TestFailure: Error, Equatable {}
