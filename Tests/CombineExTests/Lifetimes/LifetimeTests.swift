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
