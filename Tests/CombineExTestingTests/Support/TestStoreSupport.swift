import CombineExStore
import CombineExTesting
import Foundation
import Testing

// A small feature to drive through TestStore: a counter that loads a "fact" about its value,
// with a timer and a debounced search, all on a test scheduler.

/// The feature's state.
struct Feature: Equatable {
  var count = 0
  var fact: String?
  var isLoading = false
  var ticks = 0
  var query = ""
  var results: [String] = []
}

/// The feature's actions.
enum FeatureAction: StoreAction, Equatable {
  case increment
  case decrement
  case noop
  case factButtonTapped
  case factLoaded(String)
  case startTimer
  case stopTimer
  case tick
  case queryChanged(String)
  case searchResults([String])
  case never
}

/// An action of another type, for `receive(_:)` by type.
struct Ping: StoreAction, Equatable {
  var id = 0
}

func featureReducer(_ state: inout Feature, _ action: any StoreAction) {
  switch action as? FeatureAction {
  case .increment?: state.count += 1
  case .decrement?: state.count -= 1
  case .factButtonTapped?: state.isLoading = true
  case .factLoaded(let fact)?:
    state.fact = fact
    state.isLoading = false
  case .tick?: state.ticks += 1
  case .queryChanged(let query)?: state.query = query
  case .searchResults(let results)?: state.results = results
  case .noop?, .startTimer?, .stopTimer?, .never?, nil: break
  }
}

/// The feature's effects, with time on `scheduler`. `ids` keeps each test's cancellation ids
/// apart (ids are process-wide and tests run in parallel).
func featureEffects(
  scheduler: TestSchedulerOf<DispatchQueue>, ids: UUID = UUID()
) -> EffectMiddleware<FeatureAction, FeatureAction, Feature, Void> {
  .onAction { action, state, _ in
    switch action {
    case .factButtonTapped:
      return Just(FeatureAction.factLoaded("\(state.count) is a good number"))
        .delay(for: .seconds(1), scheduler: scheduler)
        .eraseToEffect()
    case .increment where state.count == 10:
      return .just(.factLoaded("ten!"))
    case .startTimer:
      return testTicks(on: scheduler)
        .map { _ in FeatureAction.tick }
        .eraseToEffect()
        .cancellable(id: ids)
    case .stopTimer:
      return .cancel(id: ids)
    case .queryChanged(let query):
      return Effect(value: FeatureAction.searchResults([query.uppercased()]))
        .debounce(id: "search-\(ids)", for: .milliseconds(300), scheduler: scheduler)
    case .never:
      return Empty(completeImmediately: false).asEffect()
    default:
      return .doNothing
    }
  }
}

/// A tick every second on a test scheduler, until cancelled (a stand-in for a timer).
func testTicks(on scheduler: TestSchedulerOf<DispatchQueue>) -> AnyPublisher<Void, Never> {
  Deferred { () -> AnyPublisher<Void, Never> in
    let subject = PassthroughSubject<Void, Never>()
    let repeating = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { subject.send(()) }
    return subject.handleEvents(receiveCancel: { repeating.cancel() }).eraseToAnyPublisher()
  }
  .eraseToAnyPublisher()
}

/// A test store for the feature, on `scheduler`.
func makeFeatureStore(
  scheduler: TestSchedulerOf<DispatchQueue> = DispatchQueue.test,
  middlewares: [Middleware<Feature>] = [],
  exhaustivity: TestStore<Feature>.Exhaustivity = .on,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
  column: UInt = #column
) -> TestStore<Feature> {
  TestStore(
    reducer: featureReducer, state: Feature(),
    middlewares: [featureEffects(scheduler: scheduler).asMiddleware()] + middlewares,
    exhaustivity: exhaustivity, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// The text of an issue's comments.
func text(of issue: Issue) -> String {
  issue.comments.map(\.rawValue).joined(separator: "\n")
}

/// Collects the issues a test helper records while it runs.
final class IssueCollector: Sendable {
  private let collected = LockedBox<[Issue]>([])

  var issues: [Issue] { collected.withLock { $0 } }

  /// Records `issue`; returns `true`, so that every issue counts as known.
  func add(_ issue: Issue) -> Bool {
    collected.withLock { $0.append(issue) }
    return true
  }
}

/// Runs `body` inside `withKnownIssue` and returns the issues it recorded. `withKnownIssue`
/// itself fails the test when `body` records none, so a helper that should fail cannot silently
/// pass; the caller checks the messages, lines and count.
func issues(recordedBy body: () -> Void) -> [Issue] {
  let collector = IssueCollector()
  withKnownIssue {
    body()
  } matching: {
    collector.add($0)
  }
  return collector.issues
}

/// The `async` form of ``issues(recordedBy:)``.
func asyncIssues(recordedBy body: () async -> Void) async -> [Issue] {
  let collector = IssueCollector()
  await withKnownIssue {
    await body()
  } matching: {
    collector.add($0)
  }
  return collector.issues
}
