// What Combine shows of a subject's subscription in a debugger, a playground or a `dump`: the
// subject's name ("PassthroughSubject", "CurrentValueSubject", "PublishedSubject", ...) as its
// description and playground value, and as children the subject (`parent` and `subject`), the
// subscriber and the outstanding demand; the subject and the subscriber are `nil` once the
// subscription was cancelled or completed, the demand stays as it was. An
// `ObservableObjectPublisher`'s subscription shows its subscriber only, as Combine's does.
// Everything is computed when asked for, from what the conduit already holds: a subscription
// stores nothing more for it.

extension SubjectConduit: CustomReflectable, CustomPlaygroundDisplayConvertible {
  /// Reads the subscriber while holding the subject's delivery token (the only thread that may
  /// touch it), so it waits for a delivery in progress on another thread, as a `send` does.
  @usableFromInline
  package var customMirror: Mirror {
    let (live, downstream) = subject.withDeliveryToken { () -> (Bool, Any) in
      isTerminated ? (false, Optional<Any>.none as Any) : (true, reflectedDownstream)
    }
    let demand = SubjectConduitState.demand(in: state.load(ordering: .acquiring))
    guard subject.kind.mirrorShowsSubject else {
      return Mirror(self, children: ["downstream": downstream])
    }
    let parent = (live ? subject : nil) as Any
    return Mirror(
      self,
      children: ["parent": parent, "downstream": downstream, "demand": demand, "subject": parent])
  }

  @usableFromInline
  package var playgroundDescription: Any { description }
}

// A subject's machinery shows itself as the subject (for example
// "PassthroughSubject<Int, Never>"), without children: it is what a subscription's mirror shows
// as its `parent` and `subject`.
extension SubjectCore: CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  package var description: String { "\(kind.name)<\(Output.self), \(Failure.self)>" }

  @usableFromInline
  package var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  package var playgroundDescription: Any { description }
}
