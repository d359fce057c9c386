/// A namespace for types that serve as subscribers: ``Subscribers/Sink``,
/// ``Subscribers/Assign``, and the values they exchange with publishers
/// (``Subscribers/Demand``, ``Subscribers/Completion``).
public enum Subscribers {}
