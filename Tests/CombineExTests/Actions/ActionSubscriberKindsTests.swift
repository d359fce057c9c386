import CombineEx
import CombineExTesting
import Testing

/// A run keeps its applying subscriber in place when it is small (a class, a small struct) and
/// boxed otherwise: each kind receives the run's events, and is let go of when the run ends or
/// is cancelled, even when it keeps its subscription (a cycle until then).
@Suite("Action: the applying subscriber's kinds")
struct ActionSubscriberKindsTests {
  /// What a subscriber received; it also keeps the run's subscription.
  final class Events {
    var values: [Int] = []
    var completion: Subscribers.Completion<ActionError<ColdTestError>>?
    var subscription: (any Subscription)?
  }

  /// An object only the subscriber holds: freed when the run lets go of the subscriber.
  final class Tracked {}

  /// The kinds of applying subscriber a run stores differently.
  enum Kind: CaseIterable, CustomTestStringConvertible {
    case classInstance
    case smallStruct
    case largeStruct
    case structWithWeakReference

    var testDescription: String {
      switch self {
      case .classInstance: "a class"
      case .smallStruct: "a struct of three words"
      case .largeStruct: "a struct of seven words"
      case .structWithWeakReference: "a struct with a weak reference"
      }
    }
  }

  final class ClassSubscriber: RecordingSubscriber {
    let events: Events
    let tracked: Tracked

    init(events: Events, tracked: Tracked) {
      self.events = events
      self.tracked = tracked
    }
  }

  struct SmallSubscriber: RecordingSubscriber {
    let combineIdentifier = CombineIdentifier()
    let events: Events
    let tracked: Tracked
  }

  struct LargeSubscriber: RecordingSubscriber {
    let combineIdentifier = CombineIdentifier()
    let events: Events
    let tracked: Tracked
    /// Makes the struct seven words, too large to be kept in place.
    let padding: (Int, Int, Int, Int) = (1, 2, 3, 4)
  }

  struct WeakReferenceSubscriber: Subscriber {
    let combineIdentifier = CombineIdentifier()
    weak var events: Events?
    let strongEvents: Events
    let tracked: Tracked

    init(events: Events, tracked: Tracked) {
      self.events = events
      strongEvents = events
      self.tracked = tracked
    }

    func receive(subscription: any Subscription) {
      events?.subscription = subscription
      subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      events?.values.append(input)
      return .none
    }

    func receive(completion: Subscribers.Completion<ActionError<ColdTestError>>) {
      events?.completion = completion
    }
  }

  /// Applies `action` with a subscriber of `kind`; returns what it receives and a weak
  /// reference to what only the subscriber holds.
  func subscribe(
    _ kind: Kind, to applied: AnyDeferredPublisher<Int, ActionError<ColdTestError>>
  ) -> (events: Events, isTrackedAlive: () -> Bool) {
    let events = Events()
    weak var weakTracked: Tracked?
    do {
      let tracked = Tracked()
      weakTracked = tracked
      switch kind {
      case .classInstance:
        applied.subscribe(ClassSubscriber(events: events, tracked: tracked))
      case .smallStruct:
        applied.subscribe(SmallSubscriber(events: events, tracked: tracked))
      case .largeStruct:
        applied.subscribe(LargeSubscriber(events: events, tracked: tracked))
      case .structWithWeakReference:
        applied.subscribe(WeakReferenceSubscriber(events: events, tracked: tracked))
      }
    }
    return (events, { weakTracked != nil })
  }

  @Test(
    "each kind of subscriber receives the run's values and completion, then is released",
    arguments: Kind.allCases)
  func completedRunReleasesSubscriber(kind: Kind) {
    let (action, log) = controlledAction()
    let (events, isTrackedAlive) = subscribe(kind, to: action.apply(1))
    log.current.send(10)
    log.current.send(20)
    #expect(isTrackedAlive())
    log.current.send(completion: .finished)
    #expect(events.values == [10, 20])
    #expect(events.completion == .finished)
    #expect(!isTrackedAlive())
    #expect(!action.isExecuting.value)
  }

  @Test(
    "each kind of subscriber receives a run's failure, then is released",
    arguments: Kind.allCases)
  func failedRunReleasesSubscriber(kind: Kind) {
    let (action, log) = controlledAction()
    let (events, isTrackedAlive) = subscribe(kind, to: action.apply(1))
    log.current.send(completion: .failure(ColdTestError(3)))
    #expect(events.completion == .failure(.publisherFailure(ColdTestError(3))))
    #expect(!isTrackedAlive())
  }

  @Test("each kind of subscriber is released when it cancels the run", arguments: Kind.allCases)
  func cancelledRunReleasesSubscriber(kind: Kind) {
    let (action, log) = controlledAction()
    let (events, isTrackedAlive) = subscribe(kind, to: action.apply(1))
    log.current.send(5)
    #expect(isTrackedAlive())
    events.subscription?.cancel()
    log.current.send(6)
    #expect(events.values == [5])
    #expect(events.completion == nil)
    #expect(!isTrackedAlive())
    #expect(!action.isExecuting.value)
  }

  @Test(
    "each kind of subscriber refused by a busy action fails with disabled, not kept",
    arguments: Kind.allCases)
  func refusedSubscriberIsNotKept(kind: Kind) {
    let (action, log) = controlledAction()
    let first = action.apply(1).record()
    let (events, isTrackedAlive) = subscribe(kind, to: action.apply(2))
    #expect(events.completion == .failure(.disabled))
    #expect(!isTrackedAlive())
    log.current.send(completion: .finished)
    #expect(first.receivedCompletion == .finished)
  }

  /// A publisher that drops its subscribers without a word.
  struct Ignoring: Publisher {
    typealias Output = Int
    typealias Failure = ColdTestError

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == ColdTestError {}
  }

  @Test(
    "a run that its publisher drops without subscribing it releases its subscriber",
    arguments: Kind.allCases)
  func droppedRunReleasesSubscriber(kind: Kind) {
    let action = Action<Int, Int, ColdTestError> { _ in AnyDeferredPublisher { Ignoring() } }
    let (events, isTrackedAlive) = subscribe(kind, to: action.apply(1))
    #expect(events.subscription == nil)
    #expect(!isTrackedAlive())
  }
}

/// A subscriber of the tests above that writes what it receives into its `events` (one
/// implementation for the class and the struct kinds, which differ only in their layout).
protocol RecordingSubscriber: Subscriber
where Input == Int, Failure == ActionError<ColdTestError> {
  var events: ActionSubscriberKindsTests.Events { get }
}

extension RecordingSubscriber {
  func receive(subscription: any Subscription) {
    events.subscription = subscription
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    events.values.append(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<ActionError<ColdTestError>>) {
    events.completion = completion
  }
}
