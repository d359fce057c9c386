import CombineExStore
import CombineExTesting
import Foundation
import Testing

/// Cancellation ids live in a process-wide table and tests run in parallel, so every test uses
/// ids of its own (a fresh UUID, or a type private to the test).
@Suite("Effect: cancellation by id")
struct EffectCancellationTests {
  @Test("cancel(id:) cancels the run in flight, which finishes")
  func cancelFinishes() {
    let id = UUID()
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = Effect(subject).cancellable(id: id).record()
    subject.send(1)
    let cancelling = Effect<Never, Never>.cancel(id: id).record()
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .finished)
    #expect(cancelling.receivedCompletion == .finished)
  }

  @Test("a cancelled run's upstream is cancelled")
  func cancelReachesUpstream() {
    let id = UUID()
    let cancels = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = Effect(subject.handleEvents(receiveCancel: { cancels.increment() }))
      .cancellable(id: id).record()
    _ = Effect<Int, Never>.cancel(id: id).record()
    #expect(cancels.count == 1)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("cancel(id:) does nothing until it runs")
  func cancelIsLazy() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = Effect(subject).cancellable(id: id).record()
    let cancel = Effect<Int, Never>.cancel(id: id)
    subject.send(1)
    #expect(recorder.receivedCompletion == nil)
    _ = cancel.record()
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.values == [1])
  }

  @Test("cancel(id:) cancels every run in flight under the id")
  func cancelAllRuns() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let effect = Effect(subject).cancellable(id: id)
    let first = effect.record()
    let second = effect.record()
    _ = Effect<Int, Never>.cancel(id: id).record()
    #expect(first.receivedCompletion == .finished)
    #expect(second.receivedCompletion == .finished)
  }

  @Test("an unknown id is ignored")
  func unknownID() {
    let recorder = Effect<Int, Never>.cancel(id: UUID()).record()
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("ids are told apart by type as well as by value")
  func idsByType() {
    enum First: Hashable { case id }
    enum Second: Hashable { case id }
    let subject = PassthroughSubject<Int, Never>()
    let byInt = Effect(subject).cancellable(id: 1 as Int).record()
    let byInt8 = Effect(subject).cancellable(id: 1 as Int8).record()
    let byFirst = Effect(subject).cancellable(id: First.id).record()
    let bySecond = Effect(subject).cancellable(id: Second.id).record()
    _ = Effect<Int, Never>.cancel(id: 1 as Int8).record()
    _ = Effect<Int, Never>.cancel(id: First.id).record()
    subject.send(1)
    #expect(byInt8.receivedCompletion == .finished)
    #expect(byFirst.receivedCompletion == .finished)
    #expect(byInt.values == [1])
    #expect(bySecond.values == [1])
    byInt.cancel()
    bySecond.cancel()
  }

  @Test("an AnyHashable id is the same id as the value it wraps")
  func anyHashableUnwrapped() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = Effect(subject).cancellable(id: id).record()
    _ = Effect<Int, Never>.cancel(id: AnyHashable(id)).record()
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("an Int or ObjectIdentifier id, kept as a word, is the same id wrapped in AnyHashable")
  func wordIDsUnwrapped() {
    enum Marker {}
    let number = Int.random(in: 1_000_000..<2_000_000)
    let object = ObjectIdentifier(Marker.self)
    let subject = PassthroughSubject<Int, Never>()
    let byNumber = Effect(subject).cancellable(id: number).record()
    let byWrappedNumber = Effect(subject).cancellable(id: AnyHashable(number + 1)).record()
    let byObject = Effect(subject).cancellable(id: object).record()
    let byWrappedObject = Effect(subject).cancellable(id: AnyHashable(object)).record()
    _ = Effect<Int, Never>.cancel(id: AnyHashable(number)).record()
    _ = Effect<Int, Never>.cancel(id: number + 1).record()
    #expect(byNumber.receivedCompletion == .finished)
    #expect(byWrappedNumber.receivedCompletion == .finished)
    #expect(byObject.receivedCompletion == nil)
    _ = Effect<Int, Never>.cancel(id: AnyHashable(object)).record()
    #expect(byObject.receivedCompletion == .finished)
    #expect(byWrappedObject.receivedCompletion == .finished)
  }

  @Test("word ids of different types with the same bits are different ids")
  func wordIDsByType() {
    enum Marker {}
    let object = ObjectIdentifier(Marker.self)
    let sameBits = unsafeBitCast(object, to: Int.self)
    let subject = PassthroughSubject<Int, Never>()
    let byObject = Effect(subject).cancellable(id: object).record()
    let byUInt = Effect(subject).cancellable(id: UInt(bitPattern: sameBits)).record()
    _ = Effect<Int, Never>.cancel(id: sameBits).record()
    subject.send(1)
    #expect(byObject.values == [1])
    #expect(byUInt.values == [1])
    _ = Effect<Int, Never>.cancel(id: UInt(bitPattern: sameBits)).record()
    #expect(byUInt.receivedCompletion == .finished)
    #expect(byObject.receivedCompletion == nil)
    byObject.cancel()
  }

  @Test("a run delivers to, and finishes, a subscriber that is a value, not an object")
  func valueSubscriber() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let log = Recorder<String>()
    Effect(subject).cancellable(id: id).subscribe(
      AnySubscriber<Int, Never>(
        receiveSubscription: { $0.request(.unlimited) },
        receiveValue: {
          log.append("\($0)")
          return .none
        },
        receiveCompletion: { log.append("\($0)") }))
    subject.send(1)
    _ = Effect<Int, Never>.cancel(id: id).record()
    subject.send(2)
    #expect(log.values == ["1", "finished"])
  }

  @Test("cancel(ids:) cancels the runs under each id")
  func cancelIDs() {
    let first = UUID()
    let second = UUID()
    let third = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let a = Effect(subject).cancellable(id: first).record()
    let b = Effect(subject).cancellable(id: second).record()
    let c = Effect(subject).cancellable(id: third).record()
    _ = Effect<Int, Never>.cancel(ids: [first, second]).record()
    #expect(a.receivedCompletion == .finished)
    #expect(b.receivedCompletion == .finished)
    #expect(c.receivedCompletion == nil)
    _ = Effect<Int, Never>.cancel(ids: [AnyHashable(third), AnyHashable("other")]).record()
    #expect(c.receivedCompletion == .finished)
  }

  @Test("cancelInFlight cancels the old run before the new one starts")
  func cancelInFlightOrder() {
    let id = UUID()
    let log = Recorder<String>()
    func run(_ name: String) -> TestSubscriber<Int, Never> {
      Effect(
        Deferred { () -> PassthroughSubject<Int, Never> in
          log.append("\(name) starts")
          return PassthroughSubject()
        }
      )
      .cancellable(id: id, cancelInFlight: true)
      .handleEvents(receiveCompletion: { _ in log.append("\(name) finished") })
      .record()
    }
    let first = run("first")
    let second = run("second")
    #expect(log.values == ["first starts", "first finished", "second starts"])
    #expect(first.receivedCompletion == .finished)
    #expect(second.receivedCompletion == nil)
    second.cancel()
  }

  @Test("a cancel merged right after a cancellable effect cancels it: in flight from subscription")
  func cancelRightAfterSubscription() async {
    let id = UUID()
    let recorder = Effect<Int, Never>.merge(
      Effect<Int, Never>.task {
        try? await Task.sleep(for: .seconds(3_600))  // long work, until cancelled
        return 1
      }.cancellable(id: id),
      .cancel(id: id)
    ).record()
    #expect(recorder.receivedCompletion == .finished)
    #expect(recorder.values == [])
  }

  @Test("a cancellable effect waiting in a concatenate is not in flight yet")
  func notYetSubscribedIsNotCancelled() {
    let id = UUID()
    let first = PassthroughSubject<Int, Never>()
    let recorder = Effect.concatenate(Effect(first), Effect(value: 2).cancellable(id: id)).record()
    _ = Effect<Int, Never>.cancel(id: id).record()
    first.send(completion: .finished)
    #expect(recorder.values == [2])
  }

  @Test("without cancelInFlight, runs under one id coexist")
  func withoutCancelInFlight() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let first = Effect(subject).cancellable(id: id).record()
    let second = Effect(subject).cancellable(id: id).record()
    subject.send(1)
    #expect(first.values == [1])
    #expect(second.values == [1])
    _ = Effect<Int, Never>.cancel(id: id).record()
  }

  @Test("a run that completes is no longer cancelled by its id: a later run is")
  func completedRunForgotten() {
    let id = UUID()
    let first = Effect([1].publisher).cancellable(id: id).record()
    #expect(first.receivedCompletion == .finished)
    let subject = PassthroughSubject<Int, Never>()
    let second = Effect(subject).cancellable(id: id).record()
    _ = Effect<Int, Never>.cancel(id: id).record()
    #expect(first.completionCount == 1)
    #expect(second.receivedCompletion == .finished)
  }

  @Test("runs under one id end one by one: the id cancels exactly the runs still in flight")
  func runsUnderOneIdEndOneByOne() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let effect = Effect(subject).cancellable(id: id)
    let first = effect.record()
    let second = effect.record()
    let third = effect.record()
    second.cancel()  // three runs to two
    first.cancel()  // two runs to one
    _ = Effect<Int, Never>.cancel(id: id).record()
    #expect(first.receivedCompletion == nil)
    #expect(second.receivedCompletion == nil)
    #expect(third.receivedCompletion == .finished)
    // The id is free again: a new run is in flight alone, and cancelled alone.
    let fourth = effect.record()
    subject.send(1)
    _ = Effect<Int, Never>.cancel(id: id).record()
    #expect(fourth.values == [1])
    #expect(fourth.receivedCompletion == .finished)
    #expect(third.completionCount == 1)
  }

  @Test("a subscriber's own cancel stops the run; a later cancel by id is harmless")
  func downstreamCancel() {
    let id = UUID()
    let cancels = Counter()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = Effect(subject.handleEvents(receiveCancel: { cancels.increment() }))
      .cancellable(id: id).record()
    recorder.cancel()
    _ = Effect<Int, Never>.cancel(id: id).record()
    #expect(cancels.count == 1)
    #expect(recorder.receivedCompletion == nil)
  }

  @Test("demand passes through a cancellable effect")
  func demand() {
    let id = UUID()
    let recorder = Effect([1, 2, 3].publisher).cancellable(id: id).record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("a failure passes through a cancellable effect")
  func failure() {
    let recorder = Effect<Int, TestError>(error: TestError(1)).cancellable(id: UUID()).record()
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("a cancel from inside a value's delivery finishes after that delivery")
  func cancelDuringDelivery() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let events = Recorder<String>()
    let cancellable = Effect(subject).cancellable(id: id).sink(
      receiveCompletion: { _ in events.append("finished") },
      receiveValue: { value in
        events.append("value \(value) begins")
        _ = Effect<Int, Never>.cancel(id: id).record()
        events.append("value \(value) ends")
      })
    subject.send(1)
    subject.send(2)
    #expect(events.values == ["value 1 begins", "value 1 ends", "finished"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a cancelled run and its subscriber are freed")
  func freedAfterCancel() {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    var recorder: TestSubscriber<Int, Never>? = Effect(subject).cancellable(id: id).record()
    let watched = WeakBox(recorder)
    _ = Effect<Int, Never>.cancel(id: id).record()
    recorder = nil
    #expect(watched.object == nil)
  }

  @Test("a cancel on another thread finishes the run")
  func cancelOnAnotherThread() async {
    let id = UUID()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = Effect(subject).cancellable(id: id).record()
    await onOtherThread { _ = Effect<Int, Never>.cancel(id: id).record() }
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("stress: cancels racing values deliver serially and finish exactly once")
  func stressCancelRacingValues() async {
    let rounds = isRunningUnderThreadSanitizer ? 100 : 1_000
    for _ in 0..<rounds / 100 {
      let runs = (0..<100).map {
        _ -> (UUID, PassthroughSubject<Int, Never>, TestSubscriber<Int, Never>) in
        let id = UUID()
        let subject = PassthroughSubject<Int, Never>()
        return (id, subject, Effect(subject).cancellable(id: id).record())
      }
      let shared = Shared(runs)
      await concurrentPerform(2) { side in
        for (id, subject, _) in shared.value {
          if side == 0 {
            for value in 0..<5 { subject.send(value) }
          } else {
            _ = Effect<Int, Never>.cancel(id: id).record()
          }
        }
      }
      for (_, _, recorder) in runs {
        #expect(recorder.completionCount == 1)
        if case .completion? = recorder.events.last {} else { Issue.record("values after the end") }
        #expect(recorder.values == Array(0..<recorder.values.count))
      }
    }
  }
}
