#if DEBUG
  /// How one explored run of a scenario went
  /// (``InterleavingExplorer/run(seed:timeoutSeconds:_:)``).
  package struct InterleavingRun: Sendable {
    /// How the run ended.
    package enum Outcome: Sendable, Equatable {
      /// Every thread returned.
      case completed
      /// Every thread that had not returned was asleep, waiting for another (the description
      /// says where each one sleeps).
      case deadlocked(String)
      /// The threads stopped reaching points in time, or never stopped reaching them.
      case stalled(String)
    }

    /// The seed that chose the schedule: the same seed replays the same run.
    package let seed: UInt64

    /// How the run ended.
    package let outcome: Outcome

    /// Which thread passed which point, in order.
    package let trace: [InterleavingStep]

    /// The trace as text, one step per line ("T1 conduit.request.added").
    package var traceDescription: String {
      trace.map(\.description).joined(separator: "\n")
    }
  }

  /// One step of an explored run: thread `thread` passed point `point`.
  package struct InterleavingStep: Sendable, Equatable, CustomStringConvertible {
    /// The thread's number in the scenario (the index of its body).
    package let thread: Int

    /// The point it passed.
    package let point: String

    init(thread: Int, point: StaticString) {
      self.thread = thread
      self.point = point.description
    }

    package var description: String { "T\(thread) \(point)" }
  }
#endif
